import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { AssertionResult, Certificate } from '@pagewatch/contract';
import type { CheckContext, CheckRun } from '../types.js';
import { describeCertificate } from '../certificate.js';
import {
  CheckFailure,
  classifyError,
  degradedMessage,
  openConnection,
  roundMs,
  RunState,
  tlsVerifyFailure,
  waitFor,
  type LookupFn,
} from '../socket.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface TlsCheckSpec {
  host: string;
  port: number;
  /** SNI and the name the certificate must be valid for; empty: the host. */
  servername: string;
  warnDays: number;
  /** Accept an untrusted chain (internal CAs, self-signed); expiry and name still count. */
  ignoreTrust: boolean;
  timeoutMs: number;
  degradedThresholdMs: number | null;
  /** From secureContextFor(): Node's roots plus private CAs; undefined for Node's roots. */
  secureContext?: tls.SecureContext;
  /** Replaces the system resolver (address pinning, tests). */
  lookup?: LookupFn;
}

/** Connects, completes a TLS handshake and judges the peer's certificate; never throws. */
export async function runTlsCheck(spec: TlsCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  let certificate: Certificate | null = null;
  try {
    // Bracketed IPv6 literals are accepted as typed; sockets want them bare.
    const host = spec.host.replace(/^\[(.*)\]$/, '$1');
    run.beginHop({ host, port: spec.port });
    const socket = await openConnection(
      { host, port: spec.port, secure: false },
      { ignoreTls: false, secureContext: undefined, lookup: spec.lookup },
      run,
    );
    run.phase = 'tls';
    const name = spec.servername !== '' ? spec.servername : host;
    const secure = run.track(
      tls.connect({
        socket,
        host,
        // SNI must not carry an IP address (RFC 6066 §3).
        servername: net.isIP(name) === 0 ? name : undefined,
        // Judged below, so the certificate is captured and described even when it is rejected.
        rejectUnauthorized: false,
        secureContext: spec.secureContext,
      }),
    );
    await waitFor(run, secure, 'secureConnect');
    run.hop.tlsEnd = performance.now();
    const latencyMs = roundMs(run.hop.tlsEnd - run.start);
    certificate = describeCertificate(secure);
    if (certificate === null) {
      throw new CheckFailure(
        'tls_handshake_failed',
        `${host}:${spec.port} completed the handshake without a certificate`,
      );
    }
    const peer = secure.getPeerCertificate();
    return judge(spec, name, certificate, peer, latencyMs, run);
  } catch (err) {
    const failure = classifyError(err, run.phase, run.endpoint);
    return {
      outcome: 'down',
      latencyMs: null,
      phases: { ...run.hop.phases(), ttfb: null, download: null },
      httpStatus: null,
      errorCode: failure.code,
      errorMessage: failure.message,
      responseSize: null,
      certExpiresAt: certificate?.notAfter ? Date.parse(certificate.notAfter) : null,
      details: { certificate, assertions: [] },
    };
  } finally {
    run.dispose();
  }
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function expiryText(msLeft: number, expiresAt: number): string {
  const days = Math.floor(msLeft / DAY_MS);
  const inDays = days === 0 ? 'less than a day' : days === 1 ? '1 day' : `${days} days`;
  return `expires in ${inDays} (on ${day(expiresAt)})`;
}

/**
 * Down for an expired, misnamed or (unless ignored) untrusted certificate; degraded when it
 * expires within the warning days or the handshake was slower than the threshold.
 */
function judge(
  spec: TlsCheckSpec,
  name: string,
  cert: Certificate,
  peer: tls.PeerCertificate,
  latencyMs: number,
  run: RunState,
): CheckRun {
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
    chainTrusted || spec.ignoreTrust
      ? null
      : tlsVerifyFailure(cert.verifyError ?? 'CERT_UNTRUSTED', facts, name);
  const expired = msLeft !== null && msLeft <= 0;
  const expiring = msLeft !== null && !expired && msLeft <= spec.warnDays * DAY_MS;

  const assertions = certificateAssertions(spec, name, {
    expiresAt,
    msLeft,
    expired,
    expiring,
    nameOk: identity === undefined,
    names: facts.subject,
    chainTrusted,
    verifyError: cert.verifyError,
  });

  let failure: CheckFailure | null = null;
  if (expired) failure = tlsVerifyFailure('CERT_HAS_EXPIRED', facts, name);
  else if (identity !== undefined)
    failure = tlsVerifyFailure('ERR_TLS_CERT_ALTNAME_INVALID', facts, name);
  else if (trustFailure !== null) failure = trustFailure;
  let warning: { code: CheckRun['errorCode']; message: string } | null = null;
  if (failure === null && expiring && expiresAt !== null && msLeft !== null) {
    warning = {
      code: 'tls_cert_expiring',
      message: `The TLS certificate of ${name} ${expiryText(msLeft, expiresAt)}`,
    };
  } else if (
    failure === null &&
    spec.degradedThresholdMs !== null &&
    latencyMs > spec.degradedThresholdMs
  ) {
    warning = {
      code: 'degraded_latency',
      message: degradedMessage(latencyMs, spec.degradedThresholdMs),
    };
  }
  const problem = failure ?? warning;
  return {
    outcome: failure !== null ? 'down' : warning !== null ? 'degraded' : 'up',
    latencyMs: failure === null ? latencyMs : null,
    phases: { ...run.hop.phases(), ttfb: null, download: null },
    httpStatus: null,
    errorCode: problem?.code ?? null,
    errorMessage: problem?.message ?? null,
    responseSize: null,
    certExpiresAt: expiresAt,
    details: { certificate: cert, assertions },
  };
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
function certificateAssertions(spec: TlsCheckSpec, name: string, j: Judgement): AssertionResult[] {
  const assertions: AssertionResult[] = [
    {
      kind: 'certificate',
      target: 'expiry',
      expected: `more than ${spec.warnDays} ${spec.warnDays === 1 ? 'day' : 'days'} left`,
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
  if (!spec.ignoreTrust) {
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
