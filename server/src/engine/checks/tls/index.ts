import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { Certificate } from '@pagewatch/contract';
import type { CheckContext, CheckRun } from '../types.js';
import { judgeCertificate, type CertificateVerdict } from '../certificate-verdict.js';
import {
  CheckFailure,
  classifyError,
  degradedMessage,
  openConnection,
  roundMs,
  RunState,
  waitFor,
  type LookupFn,
} from '../socket.js';

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
    const verdict = judgeCertificate(secure, name, spec);
    certificate = verdict?.certificate ?? null;
    if (verdict === null) {
      throw new CheckFailure(
        'tls_handshake_failed',
        `${host}:${spec.port} completed the handshake without a certificate`,
      );
    }
    return judge(spec, verdict, latencyMs, run);
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

/**
 * Down for an expired, misnamed or (unless ignored) untrusted certificate; degraded when it
 * expires within the warning days or the handshake was slower than the threshold.
 */
function judge(
  spec: TlsCheckSpec,
  verdict: CertificateVerdict,
  latencyMs: number,
  run: RunState,
): CheckRun {
  const { failure } = verdict;
  let warning: { code: CheckRun['errorCode']; message: string } | null = verdict.warning;
  if (
    failure === null &&
    warning === null &&
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
    certExpiresAt: verdict.expiresAt,
    details: { certificate: verdict.certificate, assertions: verdict.assertions },
  };
}
