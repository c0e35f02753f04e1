import type net from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { AssertionResult, Certificate } from '@pagewatch/contract';
import type { CheckContext, CheckRun } from './types.js';
import { judgeCertificate, type CertificateVerdict } from './certificate-verdict.js';
import {
  CheckFailure,
  classifyError,
  degradedMessage,
  openConnection,
  roundMs,
  RunState,
  type LookupFn,
} from './socket.js';

/**
 * What every database check shares (PostgreSQL, MySQL, Redis): the lookup and TCP connect
 * timed by the socket machinery of the other checks, TLS judged like a TLS monitor's before any
 * credential is sent, the deadline that destroys every socket, and the one answer compared
 * with the expected value. Each type's folder adds only how its driver talks over the socket.
 */
export interface DatabaseSpec {
  host: string;
  port: number;
  username: string;
  /** Opened from the sealed column; '' when none is stored. */
  password: string;
  tls: boolean;
  ignoreTrust: boolean;
  warnDays: number;
  /** The first value of the answer must equal this; '' compares nothing. */
  expected: string;
  timeoutMs: number;
  degradedThresholdMs: number | null;
  /** Private CAs (PEM) trusted besides Node's roots. */
  extraCa?: readonly string[];
  /** Replaces the system resolver (address pinning, tests). */
  lookup?: LookupFn;
}

/** What the driver got back: the first value as text (null for SQL NULL or no rows). */
export interface DatabaseAnswer {
  /** What was run, in words, for the assertion line: `SELECT 1`, `PING`. */
  asked: string;
  value: string | null;
  /** False when the answer had no row or value at all (an empty result). */
  present: boolean;
}

/** Handed to a type's session: the run and the TLS hook its driver calls. */
export interface SessionTools {
  run: RunState;
  /** The host as the socket connects to it (IPv6 brackets removed). */
  host: string;
  /** Options for the driver's own tls.connect: verification is done by `secured`. */
  tlsOptions: tls.ConnectionOptions;
  /**
   * Called with the TLS socket as soon as the driver starts its handshake: times the phase and,
   * once it completes, judges the certificate and destroys the socket when it fails, before the
   * driver sends a password. Returns the socket for chaining.
   */
  secured(secure: tls.TLSSocket): tls.TLSSocket;
  /**
   * Judges the certificate of a finished handshake (once; later calls repeat the result): the
   * failure, or null. For drivers whose own handshake callback runs before `secured`'s.
   */
  verify(secure: tls.TLSSocket): CheckFailure | null;
  /** What `verify` found, null before the handshake or when the certificate passed. */
  verifyResult(): CheckFailure | null;
}

/** A type's conversation over the connected socket: authenticate, ask, answer. */
export type DatabaseSession = (socket: net.Socket, tools: SessionTools) => Promise<DatabaseAnswer>;

/** Maps a driver's error to a code, or null to let the socket mapping decide. */
export type DriverErrorMap = (err: unknown, tools: SessionTools) => CheckFailure | null;

const ca = new Map<string, string[]>();

/** Node's roots plus the private ones, for drivers that take `ca` rather than a context. */
function trustedRoots(extra: readonly string[] | undefined): string[] | undefined {
  if (extra === undefined || extra.length === 0) return undefined;
  const key = extra.join('\n');
  let roots = ca.get(key);
  if (roots === undefined) {
    roots = [...tls.rootCertificates, ...extra];
    if (ca.size > 32) ca.clear();
    ca.set(key, roots);
  }
  return roots;
}

/** Connects, lets the session talk and judges the answer; never throws, always closes. */
export async function runDatabaseCheck(
  spec: DatabaseSpec,
  ctx: CheckContext,
  session: DatabaseSession,
  mapError: DriverErrorMap,
): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  // Bracketed IPv6 literals are accepted as typed; sockets want them bare.
  const host = spec.host.replace(/^\[(.*)\]$/, '$1');
  let verdict: CertificateVerdict | null = null;
  let failureOfTls: CheckFailure | null = null;
  let judged = false;
  const tools: SessionTools = {
    run,
    host,
    tlsOptions: {
      host,
      // SNI must not carry an IP address (RFC 6066 §3).
      ...(isIP(host) === 0 ? { servername: host } : {}),
      // Judged by `secured`, so the certificate is captured even when it is rejected.
      rejectUnauthorized: false,
      ...(trustedRoots(spec.extraCa) ? { ca: trustedRoots(spec.extraCa) } : {}),
    },
    secured(secure) {
      run.phase = 'tls';
      run.track(secure);
      secure.once('secureConnect', () => tools.verify(secure));
      return secure;
    },
    verify(secure) {
      if (judged) return failureOfTls;
      judged = true;
      run.hop.tlsEnd = performance.now();
      run.phase = 'wait';
      verdict = judgeCertificate(secure, host, spec);
      failureOfTls =
        verdict === null
          ? new CheckFailure(
              'tls_handshake_failed',
              `${host}:${spec.port} completed the handshake without a certificate`,
            )
          : verdict.failure;
      // Never send the password to a peer whose certificate failed.
      if (failureOfTls !== null) secure.destroy();
      return failureOfTls;
    },
    verifyResult: () => failureOfTls,
  };
  try {
    run.beginHop({ host, port: spec.port });
    const socket = await openConnection(
      { host, port: spec.port, secure: false },
      { ignoreTls: false, secureContext: undefined, lookup: spec.lookup, family: 0 },
      run,
    );
    run.phase = spec.tls ? 'tls' : 'wait';
    const answer = await session(socket, tools);
    run.throwIfStopped();
    const tlsFailed = tools.verifyResult();
    if (tlsFailed !== null) throw tlsFailed;
    // The first answer: authentication and the query, after the handshake when there is one.
    run.hop.requestSent = run.hop.tlsEnd ?? run.hop.connectEnd;
    run.hop.firstByte = performance.now();
    return judgeAnswer(spec, answer, run, verdict);
  } catch (err) {
    const failure =
      failureOfTls ??
      (run.signal.aborted ? (run.signal.reason as CheckFailure) : null) ??
      mapError(err, tools) ??
      classifyError(err, run.phase, run.endpoint);
    const certificate: Certificate | null =
      (verdict as CertificateVerdict | null)?.certificate ?? null;
    return {
      outcome: 'down',
      latencyMs: null,
      phases: { ...run.hop.phases(), download: null },
      httpStatus: null,
      errorCode: failure.code,
      errorMessage: failure.message,
      responseSize: null,
      certExpiresAt: (verdict as CertificateVerdict | null)?.expiresAt ?? null,
      details: {
        certificate,
        assertions: (verdict as CertificateVerdict | null)?.assertions ?? [],
      },
    };
  } finally {
    run.dispose();
  }
}

/** A driver's value as text: strings as they are, numbers and buffers as printed. */
export function valueText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value);
}

const shown = (value: string | null): string =>
  value === null ? 'NULL' : value.length > 200 ? `${value.slice(0, 200)}…` : value;

/** Down on a different first value; degraded on an expiring certificate or a slow answer. */
function judgeAnswer(
  spec: DatabaseSpec,
  answer: DatabaseAnswer,
  run: RunState,
  verdict: CertificateVerdict | null,
): CheckRun {
  const latencyMs = roundMs(performance.now() - run.start);
  const assertions: AssertionResult[] = [...(verdict?.assertions ?? [])];
  let failure: CheckFailure | null = null;
  if (spec.expected !== '') {
    const passed = answer.present && answer.value === spec.expected;
    assertions.push({
      kind: 'value',
      target: `first value of ${answer.asked}`,
      expected: spec.expected,
      actual: answer.present ? shown(answer.value) : null,
      passed,
      soft: false,
    });
    if (!passed) {
      failure = new CheckFailure(
        'unexpected_value',
        answer.present
          ? `${answer.asked} answered “${shown(answer.value)}”, expected “${spec.expected}”`
          : `${answer.asked} returned no value, expected “${spec.expected}”`,
      );
    }
  }
  const slow = spec.degradedThresholdMs !== null && latencyMs > spec.degradedThresholdMs;
  const warning =
    failure !== null
      ? null
      : (verdict?.warning ??
        (slow && spec.degradedThresholdMs !== null
          ? {
              code: 'degraded_latency' as const,
              message: degradedMessage(latencyMs, spec.degradedThresholdMs),
            }
          : null));
  const problem = failure ?? warning;
  return {
    outcome: failure !== null ? 'down' : warning !== null ? 'degraded' : 'up',
    latencyMs: failure === null ? latencyMs : null,
    phases: { ...run.hop.phases(), download: null },
    httpStatus: null,
    errorCode: problem?.code ?? null,
    errorMessage: problem?.message ?? null,
    responseSize: null,
    certExpiresAt: verdict?.expiresAt ?? null,
    details: { certificate: verdict?.certificate ?? null, assertions },
  };
}

/**
 * A connected socket handed to a driver that insists on connecting it itself (pg calls
 * `connect()` on the stream it is given): its connect only reports the connection made.
 */
export function alreadyConnected(socket: net.Socket): net.Socket {
  const connect = (): net.Socket => {
    process.nextTick(() => socket.emit('connect'));
    return socket;
  };
  return Object.assign(socket, { connect });
}
