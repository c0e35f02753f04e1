import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AssertionResult, CheckDetails, PayloadFormat } from '@pagewatch/contract';
import type { CheckContext, CheckRun } from '../types.js';
import { noPhases } from '../types.js';
import { CheckFailure, classifyError, degradedMessage, roundMs } from '../socket.js';
import { payloadBytes, showPayload } from './payload.js';

export interface UdpCheckSpec {
  host: string;
  port: number;
  format: PayloadFormat;
  send: string;
  /** Must be within one reply datagram; empty: any reply. */
  expect: string;
  timeoutMs: number;
  degradedThresholdMs: number | null;
}

interface Timing {
  start: number;
  dnsEnd: number | null;
  sent: number | null;
  firstReply: number | null;
}

/**
 * Sends one datagram from a connected socket (so an ICMP port-unreachable comes back as a
 * refusal) and waits for a reply holding the expected bytes; never throws, always closes.
 */
export async function runUdpCheck(spec: UdpCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  const timing: Timing = { start: performance.now(), dnsEnd: null, sent: null, firstReply: null };
  const replies: Buffer[] = [];
  const host = spec.host.replace(/^\[(.*)\]$/, '$1');
  const expected = payloadBytes(spec.expect, spec.format);
  const deadline = AbortSignal.any([ctx.signal, AbortSignal.timeout(spec.timeoutMs)]);
  try {
    let address = host;
    if (net.isIP(host) === 0) {
      address = (await abortable(lookup(host), deadline, 'dns', spec)).address;
      timing.dnsEnd = performance.now();
    }
    const reply = await exchange(spec, address, expected, timing, replies, deadline);
    const end = performance.now();
    const latencyMs = roundMs(end - timing.start);
    const degraded = spec.degradedThresholdMs !== null && latencyMs > spec.degradedThresholdMs;
    return {
      outcome: degraded ? 'degraded' : 'up',
      latencyMs,
      phases: phasesOf(timing),
      httpStatus: null,
      errorCode: degraded ? 'degraded_latency' : null,
      errorMessage: degraded ? degradedMessage(latencyMs, spec.degradedThresholdMs!) : null,
      responseSize: reply.length,
      certExpiresAt: null,
      details: detailsOf(spec, expected, [reply], true),
    };
  } catch (err) {
    // A connected UDP socket hears the peer's ICMP port unreachable as ECONNREFUSED.
    const failure =
      (err as NodeJS.ErrnoException).code === 'ECONNREFUSED'
        ? new CheckFailure(
            'connect_refused',
            `Nothing listens on udp ${spec.host}:${spec.port} (the host answered port unreachable)`,
          )
        : classifyError(err, timing.dnsEnd === null && net.isIP(host) === 0 ? 'dns' : 'wait', {
            host,
            port: spec.port,
          });
    return {
      outcome: 'down',
      latencyMs: null,
      phases: phasesOf(timing),
      httpStatus: null,
      errorCode: failure.code,
      errorMessage: failure.message,
      responseSize: replies.length > 0 ? replies.reduce((n, r) => n + r.length, 0) : null,
      certExpiresAt: null,
      details: detailsOf(spec, expected, replies, false),
    };
  }
}

function phasesOf(t: Timing) {
  const span = (a: number | null, b: number | null) =>
    a === null || b === null ? null : roundMs(b - a);
  return {
    ...noPhases,
    dns: span(t.start, t.dnsEnd),
    ttfb: span(t.sent, t.firstReply),
  };
}

function timeoutOf(spec: UdpCheckSpec, what: 'dns' | 'reply'): CheckFailure {
  return what === 'dns'
    ? new CheckFailure(
        'dns_timeout',
        `DNS lookup for ${spec.host} did not finish within ${spec.timeoutMs} ms`,
      )
    : new CheckFailure(
        'timeout',
        `No reply from udp ${spec.host}:${spec.port} within ${spec.timeoutMs} ms`,
      );
}

async function abortable<T>(
  work: Promise<T>,
  signal: AbortSignal,
  what: 'dns',
  spec: UdpCheckSpec,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timeoutOf(spec, what));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function exchange(
  spec: UdpCheckSpec,
  address: string,
  expected: Buffer,
  timing: Timing,
  replies: Buffer[],
  signal: AbortSignal,
): Promise<Buffer> {
  const socket = dgram.createSocket(net.isIPv6(address) ? 'udp6' : 'udp4');
  return new Promise<Buffer>((resolve, reject) => {
    const finish = (err: unknown, reply?: Buffer): void => {
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners('message');
      socket.on('error', () => undefined);
      socket.close();
      if (reply !== undefined) resolve(reply);
      else reject(err instanceof Error ? err : new Error(String(err)));
    };
    const onAbort = (): void => {
      if (replies.length === 0) {
        finish(timeoutOf(spec, 'reply'));
        return;
      }
      finish(
        new CheckFailure(
          'keyword_missing',
          `Expected “${showPayload(expected, spec.format)}” in a reply, but got ${replies.length === 1 ? '' : `${replies.length} replies, the last `}“${showPayload(replies[replies.length - 1]!, spec.format)}”`,
        ),
      );
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (err) => finish(err));
    socket.on('message', (msg: Buffer) => {
      timing.firstReply ??= performance.now();
      if (replies.length < 16) replies.push(msg);
      if (expected.length === 0 || msg.includes(expected)) finish(null, msg);
    });
    socket.connect(spec.port, address, () => {
      socket.send(payloadBytes(spec.send, spec.format), (err) => {
        if (err) finish(err);
        else timing.sent = performance.now();
      });
    });
  });
}

/** The expected reply against what came, as on the TCP check. */
function detailsOf(
  spec: UdpCheckSpec,
  expected: Buffer,
  replies: Buffer[],
  passed: boolean,
): CheckDetails {
  const last = replies[replies.length - 1];
  const assertion: AssertionResult = {
    kind: 'reply',
    target: 'reply datagram',
    expected: expected.length === 0 ? 'any reply' : showPayload(expected, spec.format),
    actual: last === undefined ? null : showPayload(last, spec.format),
    passed,
    soft: false,
  };
  return { certificate: null, assertions: [assertion] };
}
