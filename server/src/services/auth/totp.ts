import { Secret, TOTP } from 'otpauth';
import { randomBytes } from 'node:crypto';
import { sha256 } from '../../lib/crypto.js';

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

/**
 * The 30-second step a code belongs to, or null when it matches none within ±1 step. A code
 * is accepted only for a step later than the last one used, so an observed code can't be replayed.
 */
export function totpStep(
  secretBase32: string,
  code: string,
  at: number,
  lastStep: number | null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32, 'x').validate({ token: code, window: 1, timestamp: at });
  if (delta === null) return null;
  const step = Math.floor(at / 30_000) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

// Crockford's base32: no i, l, o or u, so codes survive being read aloud or copied by hand.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const normalise = (code: string): string =>
  code
    .toLowerCase()
    .replace(/[il]/g, '1')
    .replace(/o/g, '0')
    .replace(/[^0-9a-z]/g, '');
export const recoveryHash = (code: string): string => sha256(`recovery:${normalise(code)}`);

/** Ten one-time codes like `k3f9-x2pq-7wme` (60 bits each), shown once; only hashes are kept. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const raw = [...randomBytes(12)].map((b) => ALPHABET[b & 31]).join('');
    return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}`;
  });
}
