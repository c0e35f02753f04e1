import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AssertionResult, CheckDetails } from '@pagewatch/contract';
import type { CheckContext, CheckRun } from '../types.js';
import {
  CheckFailure,
  classifyError,
  degradedMessage,
  openConnection,
  roundMs,
  RunState,
  type LookupFn,
} from '../socket.js';
import { decodeEscapes, showBytes } from './escapes.js';

/** Bytes read while looking for the expected text. */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024;

export interface TcpCheckSpec {
  host: string;
  port: number;
  /** Written once connected; escapes as documented on TcpMonitorInput. Empty: nothing. */
  send: string;
  /** Must appear in what the peer sends before the deadline. Empty: connecting is enough. */
  expect: string;
  timeoutMs: number;
  degradedThresholdMs: number | null;
  /** Default 64 KiB. */
  maxReadBytes?: number;
  /** Replaces the system resolver (address pinning, tests). */
  lookup?: LookupFn;
}

interface Received {
  /** Latin-1 view of the bytes read, one character per byte. */
  text: string;
  bytes: number;
}

/** Connects, optionally sends and waits for a banner; never throws, always destroys the socket. */
export async function runTcpCheck(spec: TcpCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  const received: Received = { text: '', bytes: 0 };
  try {
    // Every wait inside is abort-aware, so the deadline ends the check without an outer race and
    // the read can still tell "nothing came" from "the wrong thing came".
    return await performCheck(spec, run, received);
  } catch (err) {
    const failure = classifyError(err, run.phase, run.endpoint);
    return failedRun(run, failure, received, detailsOf(spec, received, false));
  } finally {
    run.dispose();
  }
}

async function performCheck(
  spec: TcpCheckSpec,
  run: RunState,
  received: Received,
): Promise<CheckRun> {
  // Bracketed IPv6 literals are accepted as typed; sockets want them bare.
  const host = spec.host.replace(/^\[(.*)\]$/, '$1');
  run.beginHop({ host, port: spec.port });
  const socket = await openConnection(
    { host, port: spec.port, secure: false },
    { ignoreTls: false, secureContext: undefined, lookup: spec.lookup, family: 0 },
    run,
  );
  try {
    const expected = decodeEscapes(spec.expect).toString('latin1');
    const payload = decodeEscapes(spec.send);
    run.phase = 'wait';
    if (expected !== '') socket.on('data', collector(received, run));
    if (payload.length > 0) await write(socket, payload, run);
    run.hop.requestSent = performance.now();
    if (expected !== '') {
      await readUntil(socket, expected, spec.maxReadBytes ?? DEFAULT_MAX_READ_BYTES, run, received);
    }
    const end = performance.now();
    const latencyMs = roundMs(end - run.start);
    const threshold = spec.degradedThresholdMs;
    const degraded = threshold !== null && latencyMs > threshold;
    return {
      outcome: degraded ? 'degraded' : 'up',
      latencyMs,
      phases: { ...run.hop.phases(), download: null },
      httpStatus: null,
      errorCode: degraded ? 'degraded_latency' : null,
      errorMessage: degraded ? degradedMessage(latencyMs, threshold) : null,
      responseSize: expected === '' ? null : received.bytes,
      certExpiresAt: null,
      details: detailsOf(spec, received, true),
    };
  } finally {
    socket.destroy();
  }
}

/** Records bytes from the moment of connecting, so a banner sent before our write counts. */
function collector(received: Received, run: RunState): (chunk: Buffer) => void {
  return (chunk) => {
    run.hop.firstByte ??= performance.now();
    received.bytes += chunk.length;
    received.text += chunk.toString('latin1');
  };
}

const closedError = (): Error =>
  Object.assign(new Error('The peer closed the connection'), { code: 'ECONNRESET' });

/** Resolves once the payload is handed to the kernel; a peer closing or resetting first rejects. */
function write(socket: net.Socket, payload: Buffer, run: RunState): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const { signal } = run;
    const finish = (err?: unknown): void => {
      socket.off('error', finish);
      socket.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (err === undefined || err === null) resolve();
      else reject(err instanceof Error ? err : new Error('The write failed'));
    };
    const onClose = (): void => finish(closedError());
    const onAbort = (): void => finish(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    socket.on('error', finish);
    socket.on('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.write(payload, (err) => {
      // A write cut short by a destroyed socket is the peer going away, not our bug.
      const code = err && 'code' in err ? err.code : undefined;
      finish(code === 'ERR_STREAM_DESTROYED' ? closedError() : err);
    });
  });
}

/** Waits until `expected` is among the bytes received, the peer stops, or the deadline fires. */
function readUntil(
  socket: net.Socket,
  expected: string,
  maxBytes: number,
  run: RunState,
  received: Received,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const { signal } = run;
    const cleanup = (): void => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
      signal.removeEventListener('abort', onAbort);
    };
    const settle = (failure?: unknown): void => {
      cleanup();
      if (failure === undefined) resolve();
      else reject(failure instanceof Error ? failure : new Error('The read failed'));
    };
    const missing = (why: string): CheckFailure =>
      new CheckFailure(
        'keyword_missing',
        `Expected “${showBytes(expected)}” but ${why}: “${showBytes(received.text)}”`,
      );
    const check = (): void => {
      if (received.text.includes(expected)) settle();
      else if (received.bytes >= maxBytes) {
        settle(missing(`it was not in the first ${Math.round(maxBytes / 1024)} KiB received`));
      }
    };
    const onData = (): void => check();
    const onEnd = (): void => {
      if (received.bytes === 0) {
        settle(closedError());
      } else settle(missing('the peer closed the connection after sending'));
    };
    const onError = (err: Error): void => settle(err);
    const onAbort = (): void => {
      // Deadline with something received: the wrong banner, not silence.
      const reason = signal.reason as CheckFailure;
      settle(received.bytes > 0 && reason.code === 'timeout' ? missing('only received') : reason);
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
    check();
  });
}

/**
 * The expected banner as one expected-vs-actual line (none without one), so the monitor page
 * shows what the peer sent, as it does for HTTP and DNS assertions.
 */
function detailsOf(spec: TcpCheckSpec, received: Received, passed: boolean): CheckDetails {
  if (spec.expect === '') return { certificate: null, assertions: [] };
  const banner: AssertionResult = {
    kind: 'banner',
    target: 'received from the peer',
    expected: showBytes(decodeEscapes(spec.expect).toString('latin1')),
    actual: received.bytes === 0 ? null : showBytes(received.text),
    passed,
    soft: false,
  };
  return { certificate: null, assertions: [banner] };
}

function failedRun(
  run: RunState,
  failure: CheckFailure,
  received: Received,
  details: CheckDetails,
): CheckRun {
  return {
    outcome: 'down',
    latencyMs: null,
    phases: { ...run.hop.phases(), download: null },
    httpStatus: null,
    errorCode: failure.code,
    errorMessage: failure.message,
    responseSize: received.bytes > 0 ? received.bytes : null,
    certExpiresAt: null,
    details,
  };
}
