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
