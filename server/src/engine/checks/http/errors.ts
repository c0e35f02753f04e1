import type { CheckErrorCode } from '@pagewatch/contract';
import type { Endpoint, Failure, Phase } from './timing.js';

/** A check failure with its SPEC §8 code; thrown inside the check, turned into a CheckRun at the top. */
export class CheckFailure extends Error implements Failure {
  constructor(
    readonly code: CheckErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CheckFailure';
  }

  static from(failure: Failure): CheckFailure {
    return failure instanceof CheckFailure
      ? failure
      : new CheckFailure(failure.code, failure.message);
  }
}

/** The name does not exist (or has no address): the answer was definite. */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA']);
/** No answer in time, or a temporary failure: a lost packet as much as a broken resolver. */
const DNS_TIMEOUT_CODES = new Set(['ETIMEOUT', 'EAI_AGAIN']);
/** The resolver answered, but with a failure of its own. */
const DNS_SERVER_CODES = new Set(['ESERVFAIL', 'EREFUSED', 'EBADRESP', 'ECONNREFUSED']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
/** This machine ran out of something; the target was never reached. */
const LOCAL_EXHAUSTION_CODES = new Set(['EMFILE', 'ENFILE', 'ENOBUFS', 'ENOMEM']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** OpenSSL verification results meaning "no trusted chain to this certificate". */
const UNTRUSTED_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'ERR_TLS_CERT_SIGNATURE_ALGORITHM_UNSUPPORTED',
]);

function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') {
    return err.code;
  }
  return '';
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The certificate facts a verification message can name. */
export interface CertFacts {
  validTo: string | null;
  subject: string | null;
  issuer: string | null;
}

/** Maps an OpenSSL verification result (`authorizationError`) to a code and a message. */
export function tlsVerifyFailure(reason: string, cert: CertFacts, host: string): CheckFailure {
  if (reason === 'CERT_HAS_EXPIRED') {
    const when = cert.validTo === null ? '' : ` on ${new Date(cert.validTo).toISOString()}`;
    return new CheckFailure('tls_cert_expired', `The TLS certificate of ${host} expired${when}`);
  }
  if (reason === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = cert.subject === null ? '' : ` (it is for ${cert.subject})`;
    return new CheckFailure(
      'tls_hostname_mismatch',
      `The TLS certificate is not valid for ${host}${names}`,
    );
  }
  if (UNTRUSTED_CODES.has(reason)) {
    const issuer = cert.issuer === null ? '' : ` issued by ${cert.issuer}`;
    const why = reason === 'DEPTH_ZERO_SELF_SIGNED_CERT' ? 'self-signed' : 'not trusted';
    return new CheckFailure(
      'tls_cert_untrusted',
      `The TLS certificate of ${host}${issuer} is ${why} (${reason})`,
    );
  }
  return new CheckFailure(
    'tls_handshake_failed',
    `TLS certificate verification failed for ${host} (${reason})`,
  );
}

/** Maps a Node error raised during `phase` to a SPEC §8 code and a human message (never a stack). */
export function classifyError(err: unknown, phase: Phase, at: Endpoint): CheckFailure {
  if (err instanceof CheckFailure) return err;
  const code = errorCode(err);
  const detail = errorMessage(err);
  if (DNS_CODES.has(code)) {
    return new CheckFailure(
      'dns_not_found',
      `DNS lookup for ${at.host} failed: no such host (${code})`,
    );
  }
  if (DNS_TIMEOUT_CODES.has(code)) {
    return new CheckFailure(
      'dns_timeout',
      `DNS lookup for ${at.host} got no answer in time (${code})`,
    );
  }
  if (phase === 'dns' && DNS_SERVER_CODES.has(code)) {
    return new CheckFailure(
      'dns_server_failure',
      `The DNS server failed to resolve ${at.host} (${code})`,
    );
  }
  if (code === 'ECONNREFUSED') {
    return new CheckFailure('connect_refused', `Connection to ${at.host}:${at.port} was refused`);
  }
  if (UNREACHABLE_CODES.has(code)) {
    return new CheckFailure('connect_refused', `${at.host}:${at.port} is unreachable (${code})`);
  }
  if (code === 'ETIMEDOUT' && phase === 'connect') {
    return new CheckFailure('connect_timeout', `TCP connection to ${at.host}:${at.port} timed out`);
  }
  if (phase === 'tls') return tlsHandshakeFailure(code, detail, at);
  if (RESET_CODES.has(code)) {
    const when =
      phase === 'download' ? 'before the response body was complete' : 'before it answered';
    return new CheckFailure(
      'connection_reset',
      `The server closed the connection ${when} (${code})`,
    );
  }
  if (LOCAL_EXHAUSTION_CODES.has(code)) {
    return new CheckFailure(
      'overloaded',
      `Pagewatch could not run this check: it is out of local resources (${code})`,
    );
  }
  if (code.startsWith('HPE_') || code.startsWith('Z_') || code === 'ERR_INVALID_HTTP_RESPONSE') {
    return new CheckFailure('protocol_error', `Invalid HTTP response: ${detail} (${code})`);
  }
  return new CheckFailure('internal_error', code === '' ? detail : `${detail} (${code})`);
}

function tlsHandshakeFailure(code: string, detail: string, at: Endpoint): CheckFailure {
  const verify = tlsVerifyFailure(code, { validTo: null, subject: null, issuer: null }, at.host);
  if (verify.code !== 'tls_handshake_failed') return verify;
  // A reset during the handshake is how many servers refuse a client hello (unknown SNI, protocol).
  const why = RESET_CODES.has(code) ? 'the server closed the connection' : detail;
  const suffix = code === '' ? '' : ` (${code})`;
  return new CheckFailure(
    'tls_handshake_failed',
    `TLS handshake with ${at.host}:${at.port} failed: ${why}${suffix}`,
  );
}
