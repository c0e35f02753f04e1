import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { AssertionResult, CheckErrorCode } from '@pagewatch/contract';
import { judgeCertificate, type CertificateRules } from './certificate-verdict.js';
import {
  CheckFailure,
  classifyError,
  degradedMessage,
  roundMs,
  waitFor,
  type RunState,
} from './socket.js';
import type { CheckRun } from './types.js';

/**
 * The steps protocol checks (MQTT, AMQP, SMTP…) share once the shared connect has a socket:
 * a TLS upgrade judged like the TLS check, and the run's result, up or failed, in one shape.
 */

export interface TlsRules extends CertificateRules {
  /** From secureContextFor(): Node's roots plus private CAs; undefined for Node's roots. */
  secureContext?: tls.SecureContext;
}

/**
 * Speaks TLS over a connected socket (from the first byte, or after a STARTTLS) and judges the
 * certificate for `host`. The certificate is noted on the run, so a failed check still shows
 * it; an expired, misnamed or untrusted one throws its failure.
 */
export async function upgradeToTls(
  socket: net.Socket,
  host: string,
  rules: TlsRules,
  run: RunState,
): Promise<{ secure: tls.TLSSocket; warning: { code: CheckErrorCode; message: string } | null }> {
  run.phase = 'tls';
  const secure = run.track(
    tls.connect({
      socket,
      host,
      // SNI must not carry an IP address (RFC 6066 §3).
      servername: net.isIP(host) === 0 ? host : undefined,
      // Judged below, so the certificate is captured and described even when it is rejected.
      rejectUnauthorized: false,
      secureContext: rules.secureContext,
    }),
  );
  await waitFor(run, secure, 'secureConnect');
  run.hop.tlsEnd = performance.now();
  const verdict = judgeCertificate(secure, host, rules);
  if (verdict === null) {
    throw new CheckFailure(
      'tls_handshake_failed',
      `${host}:${run.endpoint.port} completed the handshake without a certificate`,
    );
  }
  run.noteCertificate(verdict.certificate);
  run.certificateAssertions = verdict.assertions;
  if (verdict.failure !== null) throw verdict.failure;
  return { secure, warning: verdict.warning };
}

export interface Delivered {
  /** A certificate warning (expiring soon), which degrades. */
  warning?: { code: CheckErrorCode; message: string } | null;
  /** What the protocol step checked, after the certificate's assertions. */
  assertions?: AssertionResult[];
  responseSize?: number | null;
}

/** The run of a check that got through: degraded by a certificate warning or the threshold. */
export function deliveredRun(
  run: RunState,
  degradedThresholdMs: number | null,
  delivered: Delivered = {},
): CheckRun {
  const latencyMs = roundMs(performance.now() - run.start);
  let warning = delivered.warning ?? null;
  if (warning === null && degradedThresholdMs !== null && latencyMs > degradedThresholdMs) {
    warning = {
      code: 'degraded_latency',
      message: degradedMessage(latencyMs, degradedThresholdMs),
    };
  }
  return {
    outcome: warning === null ? 'up' : 'degraded',
    latencyMs,
    phases: { ...run.hop.phases(), download: null },
    httpStatus: null,
    errorCode: warning?.code ?? null,
    errorMessage: warning?.message ?? null,
    responseSize: delivered.responseSize ?? null,
    certExpiresAt: run.certExpiresAt,
    details: {
      certificate: run.certificate,
      assertions: [...(run.certificateAssertions ?? []), ...(delivered.assertions ?? [])],
    },
  };
}

/**
 * The run of a check that failed with `err`, classified by the phase it failed in; a failure
 * with an `assertion` (what was expected and seen) lists it after the given ones.
 */
export function failedRun(
  run: RunState,
  err: unknown,
  assertions: AssertionResult[] = [],
): CheckRun {
  const failure = classifyError(err, run.phase, run.endpoint);
  // A failure may carry the assertion that failed (a queue too deep), listed with the rest.
  const failed = (err as { assertion?: AssertionResult } | null)?.assertion;
  if (failed !== undefined) assertions = [...assertions, failed];
  return {
    outcome: 'down',
    latencyMs: null,
    phases: { ...run.hop.phases(), download: null },
    httpStatus: null,
    errorCode: failure.code,
    errorMessage: failure.message,
    responseSize: null,
    certExpiresAt: run.certExpiresAt,
    details: {
      certificate: run.certificate,
      assertions: [...(run.certificateAssertions ?? []), ...assertions],
    },
  };
}
