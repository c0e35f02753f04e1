import { Secret, TOTP } from 'otpauth';
import { randomBase62, sha256 } from '../../lib/crypto.js';

/** SPEC §5: 6 digits, 30-second steps, one step of drift either way. */
export function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: 'Pagewatch',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secretBase32),
  });
}

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export function totpValid(secretBase32: string, code: string, at: number): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  return totpFor(secretBase32, 'x').validate({ token: code, window: 1, timestamp: at }) !== null;
}

const normalise = (code: string): string => code.toLowerCase().replace(/[^0-9a-z]/g, '');
export const recoveryHash = (code: string): string => sha256(`recovery:${normalise(code)}`);

/** Ten one-time codes like `k3f9-x2pq-7wme`, shown once; only their hashes are kept. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const raw = randomBase62(12).toLowerCase();
    return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}`;
  });
}
