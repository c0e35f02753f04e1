import type tls from 'node:tls';
import type { Certificate } from '@pagewatch/contract';

function firstName(value: string | string[] | undefined): string | null {
  const name = Array.isArray(value) ? value[0] : value;
  return name === undefined || name === '' ? null : name;
}

function isoOrNull(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * The certificate a TLS socket's peer presented, in the contract's shape; null when the peer
 * sent none. Shared by every check that speaks TLS so the monitor page shows one panel.
 */
export function describeCertificate(socket: tls.TLSSocket): Certificate | null {
  const cert = socket.getPeerCertificate();
  // getPeerCertificate() returns an empty object when the peer sent none.
  if (cert === undefined || typeof cert.valid_to !== 'string') return null;
  const sans =
    typeof cert.subjectaltname === 'string' && cert.subjectaltname !== ''
      ? cert.subjectaltname.split(/,\s*/)
      : [];
  const reason = socket.authorizationError as Error | string | undefined | null;
  return {
    subject: firstName((cert.subject as Partial<tls.Certificate> | undefined)?.CN),
    issuer:
      firstName((cert.issuer as Partial<tls.Certificate> | undefined)?.CN) ??
      firstName((cert.issuer as Partial<tls.Certificate> | undefined)?.O),
    sans,
    notBefore: isoOrNull(cert.valid_from),
    notAfter: isoOrNull(cert.valid_to),
    fingerprint256: typeof cert.fingerprint256 === 'string' ? cert.fingerprint256 : null,
    trusted: socket.authorized,
    verifyError: socket.authorized || reason == null ? null : String(reason),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The degraded warning of a certificate that is still valid but expires within `warnDays`, for
 * the checks that speak TLS besides the TLS check itself (which also explains it line by line).
 */
export function expiryWarning(
  certificate: Certificate | null,
  name: string,
  warnDays: number,
  now = Date.now(),
): { code: 'tls_cert_expiring'; message: string } | null {
  if (certificate?.notAfter == null) return null;
  const expiresAt = Date.parse(certificate.notAfter);
  const left = expiresAt - now;
  if (left <= 0 || left > warnDays * DAY_MS) return null;
  const days = Math.floor(left / DAY_MS);
  const inDays = days === 0 ? 'less than a day' : days === 1 ? '1 day' : `${days} days`;
  return {
    code: 'tls_cert_expiring',
    message: `The TLS certificate of ${name} expires in ${inDays} (on ${certificate.notAfter.slice(0, 10)})`,
  };
}
