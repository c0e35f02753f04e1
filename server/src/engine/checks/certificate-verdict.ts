import tls from 'node:tls';
import type { AssertionResult, Certificate, CheckErrorCode } from '@pagewatch/contract';
import { describeCertificate } from './certificate.js';
import { CheckFailure, tlsVerifyFailure } from './socket.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CertificateRules {
  /** Degrade this many days before expiry. */
  warnDays: number;
  /** Accept an untrusted chain (internal CAs, self-signed); expiry and name still count. */
  ignoreTrust: boolean;
}

/**
 * What a TLS peer's certificate is worth: the failure that makes the check down (expired, wrong
 * name, untrusted unless ignored), else the warning that degrades it (expiring within the
 * warning days), with the certificate and the assertions the monitor page lists. Shared by the
 * TLS check and every protocol check that speaks TLS, so all judge a certificate alike.
 */
export interface CertificateVerdict {
  certificate: Certificate;
  expiresAt: number | null;
  failure: CheckFailure | null;
  warning: { code: CheckErrorCode; message: string } | null;
  assertions: AssertionResult[];
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function expiryText(msLeft: number, expiresAt: number): string {
  const days = Math.floor(msLeft / DAY_MS);
  const inDays = days === 0 ? 'less than a day' : days === 1 ? '1 day' : `${days} days`;
  return `expires in ${inDays} (on ${day(expiresAt)})`;
}

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
  return {
    code: 'tls_cert_expiring',
    message: `The TLS certificate of ${name} ${expiryText(left, expiresAt)}`,
  };
}

/**
 * Judges the certificate of a finished handshake for `name` (the name the client asked for).
 * Null when the peer sent none.
 */
export function judgeCertificate(
  secure: tls.TLSSocket,
  name: string,
  rules: CertificateRules,
): CertificateVerdict | null {
  const cert = describeCertificate(secure);
  if (cert === null) return null;
  const peer = secure.getPeerCertificate();
  const expiresAt = cert.notAfter === null ? null : Date.parse(cert.notAfter);
  const msLeft = expiresAt === null ? null : expiresAt - Date.now();
  const facts = {
    validTo: cert.notAfter,
    subject: cert.sans.length > 0 ? cert.sans.join(', ') : cert.subject,
    issuer: cert.issuer,
  };
  const identity = tls.checkServerIdentity(name, peer);
  // Node reports a good chain for the wrong name as unauthorized too; the name is judged apart.
  const chainTrusted = cert.trusted || cert.verifyError === 'ERR_TLS_CERT_ALTNAME_INVALID';
  const trustFailure =
    chainTrusted || rules.ignoreTrust
      ? null
      : tlsVerifyFailure(cert.verifyError ?? 'CERT_UNTRUSTED', facts, name);
  const expired = msLeft !== null && msLeft <= 0;
  const expiring = msLeft !== null && !expired && msLeft <= rules.warnDays * DAY_MS;

  let failure: CheckFailure | null = null;
  if (expired) failure = tlsVerifyFailure('CERT_HAS_EXPIRED', facts, name);
  else if (identity !== undefined)
    failure = tlsVerifyFailure('ERR_TLS_CERT_ALTNAME_INVALID', facts, name);
  else if (trustFailure !== null) failure = trustFailure;
  const warning =
    failure === null && expiring && expiresAt !== null && msLeft !== null
      ? {
          code: 'tls_cert_expiring' as const,
          message: `The TLS certificate of ${name} ${expiryText(msLeft, expiresAt)}`,
        }
      : null;
  const assertions = certificateAssertions(rules, name, {
    expiresAt,
    msLeft,
    expired,
    expiring,
    nameOk: identity === undefined,
    names: facts.subject,
    chainTrusted,
    verifyError: cert.verifyError,
  });
  return { certificate: cert, expiresAt, failure, warning, assertions };
}

/** What the judgement found, for the assertions the monitor page lists. */
interface Judgement {
  expiresAt: number | null;
  msLeft: number | null;
  expired: boolean;
  expiring: boolean;
  nameOk: boolean;
  /** The names the certificate is for. */
  names: string | null;
  chainTrusted: boolean;
  verifyError: string | null;
}

/** Expiry (soft until expired), name and, unless ignored, trust, as expected vs actual. */
function certificateAssertions(
  rules: CertificateRules,
  name: string,
  j: Judgement,
): AssertionResult[] {
  const assertions: AssertionResult[] = [
    {
      kind: 'certificate',
      target: 'expiry',
      expected: `more than ${rules.warnDays} ${rules.warnDays === 1 ? 'day' : 'days'} left`,
      actual:
        j.expiresAt === null || j.msLeft === null
          ? null
          : j.expired
            ? `expired on ${day(j.expiresAt)}`
            : expiryText(j.msLeft, j.expiresAt),
      passed: !j.expired && !j.expiring,
      // Expiring soon only degrades; expired fails outright.
      soft: !j.expired,
    },
    {
      kind: 'certificate',
      target: 'name',
      expected: `valid for ${name}`,
      actual: j.nameOk ? `valid for ${name}` : j.names,
      passed: j.nameOk,
      soft: false,
    },
  ];
  if (!rules.ignoreTrust) {
    assertions.push({
      kind: 'certificate',
      target: 'trust',
      expected: 'a chain to a trusted root',
      actual: j.chainTrusted ? 'trusted' : (j.verifyError ?? 'not trusted'),
      passed: j.chainTrusted,
      soft: false,
    });
  }
  return assertions;
}
