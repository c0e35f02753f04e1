import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import type tls from 'node:tls';
import type { AssertionResult } from '@pagewatch/contract';
import { deliveredRun, failedRun, upgradeToTls } from '../protocol-run.js';
import { CheckFailure, openConnection, RunState, type LookupFn } from '../socket.js';
import type { CheckContext, CheckRun } from '../types.js';
import * as amqp from './frames.js';

export interface AmqpCheckSpec {
  host: string;
  port: number;
  vhost: string;
  username: string;
  /** Opened from the sealed credential; '' for none. */
  password: string;
  tls: boolean;
  ignoreTrust: boolean;
  warnDays: number;
  /** '' to stop once the virtual host is open. */
  queue: string;
  maxDepth: number | null;
  timeoutMs: number;
  degradedThresholdMs: number | null;
  secureContext?: tls.SecureContext;
  lookup?: LookupFn;
}

const plural = (n: number, word: string): string =>
  `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/**
 * Opens an AMQP 0-9-1 connection (TLS judged like a TLS monitor), authenticates, opens the
 * virtual host and, with a queue, declares it passively to learn that it exists and its depth.
 * Never throws, always closes the socket.
 */
export async function runAmqpCheck(spec: AmqpCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  const assertions: AssertionResult[] = [];
  try {
    const host = spec.host.replace(/^\[(.*)\]$/, '$1');
    run.beginHop({ host, port: spec.port });
    const socket = await openConnection(
      { host, port: spec.port, secure: false },
      { ignoreTls: false, secureContext: undefined, lookup: spec.lookup },
      run,
    );
    const upgraded = spec.tls ? await upgradeToTls(socket, host, spec, run) : null;
    const stream = upgraded?.secure ?? socket;
    run.phase = 'wait';
    const frames = new FrameQueue(stream, run);
    stream.write(amqp.PROTOCOL_HEADER);
    run.hop.requestSent = performance.now();
    await handshake(frames, stream, spec, host, run);
    if (spec.queue !== '') assertions.push(...(await inspectQueue(frames, stream, spec)));
    stream.write(amqp.close());
    return deliveredRun(run, spec.degradedThresholdMs, { warning: upgraded?.warning, assertions });
  } catch (err) {
    return failedRun(run, err, assertions);
  } finally {
    run.dispose();
  }
}

async function handshake(
  frames: FrameQueue,
  stream: net.Socket,
  spec: AmqpCheckSpec,
  host: string,
  run: RunState,
): Promise<void> {
  const start = await frames.next('the protocol header');
  run.hop.firstByte = performance.now();
  if (!amqp.is(start, amqp.M.start)) throw notAmqp(host, 'it did not start the connection');
  const mechanisms = amqp.startMechanisms(start);
  if (!mechanisms.includes('PLAIN')) {
    throw new CheckFailure(
      'protocol_error',
      `${host} does not offer PLAIN authentication (it offers ${mechanisms.join(', ') || 'none'})`,
    );
  }
  stream.write(amqp.startOk(spec.username, spec.password));
  const tune = await frames.next('the credentials', () => refusedLogin(spec.username));
  if (amqp.is(tune, amqp.M.close)) throw closedWith(tune, `the login of “${spec.username}”`);
  if (!amqp.is(tune, amqp.M.tune)) throw notAmqp(host, 'it did not tune the connection');
  stream.write(Buffer.concat([amqp.tuneOk(tune), amqp.open(spec.vhost)]));
  const opened = await frames.next('the virtual host');
  if (amqp.is(opened, amqp.M.close)) throw closedWith(opened, `the virtual host “${spec.vhost}”`);
  if (!amqp.is(opened, amqp.M.openOk)) throw notAmqp(host, 'it did not open the virtual host');
}

/** Passive declare on a channel of its own: the queue's existence and its ready messages. */
async function inspectQueue(
  frames: FrameQueue,
  stream: net.Socket,
  spec: AmqpCheckSpec,
): Promise<AssertionResult[]> {
  stream.write(amqp.channelOpen());
  const channel = await frames.next('the channel');
  if (amqp.is(channel, amqp.M.close)) throw closedWith(channel, 'a channel');
  stream.write(amqp.declarePassive(spec.queue));
  const answer = await frames.next('the queue');
  const depthExpected =
    spec.maxDepth === null ? 'exists' : `at most ${plural(spec.maxDepth, 'ready message')}`;
  if (amqp.is(answer, amqp.M.channelClose) || amqp.is(answer, amqp.M.close)) {
    const reason = amqp.closeReason(answer);
    if (reason.code === 404) {
      throw Object.assign(
        new CheckFailure(
          'queue_missing',
          `The queue “${spec.queue}” does not exist on virtual host “${spec.vhost}”`,
        ),
        { assertion: queueAssertion(spec, depthExpected, 'missing', false) },
      );
    }
    throw closedWith(answer, `the queue “${spec.queue}”`);
  }
  if (!amqp.is(answer, amqp.M.queueDeclareOk)) {
    throw new CheckFailure('protocol_error', `The answer about “${spec.queue}” was not understood`);
  }
  const { messages, consumers } = amqp.declareOk(answer);
  const actual = `${plural(messages, 'ready message')}, ${plural(consumers, 'consumer')}`;
  const passed = spec.maxDepth === null || messages <= spec.maxDepth;
  const assertion = queueAssertion(spec, depthExpected, actual, passed);
  if (!passed) {
    throw Object.assign(
      new CheckFailure(
        'queue_too_deep',
        `The queue “${spec.queue}” holds ${plural(messages, 'ready message')}, more than the ${spec.maxDepth} allowed`,
      ),
      { assertion },
    );
  }
  return [assertion];
}

const queueAssertion = (
  spec: AmqpCheckSpec,
  expected: string,
  actual: string,
  passed: boolean,
): AssertionResult => ({
  kind: 'queue',
  target: spec.queue,
  expected,
  actual,
  passed,
  soft: false,
});

const notAmqp = (host: string, why: string): CheckFailure =>
  new CheckFailure('protocol_error', `${host} did not answer as an AMQP 0-9-1 broker: ${why}`);

const refusedLogin = (username: string): CheckFailure =>
  new CheckFailure(
    'auth_failed',
    `The broker closed the connection after the login of “${username}” (wrong user name or password?)`,
  );

/** A connection.close or channel.close from the broker: 403 and 530 are refusals of access. */
function closedWith(frame: amqp.MethodFrame, what: string): CheckFailure {
  const { code, text } = amqp.closeReason(frame);
  const refused = code === 403 || code === 530;
  return new CheckFailure(
    refused ? 'auth_failed' : 'protocol_error',
    `The broker refused ${what}: ${text} (${code})`,
  );
}

/** Method frames as they arrive, awaited one at a time within the run's deadline. */
class FrameQueue {
  private readonly reader = new amqp.FrameReader();
  private readonly queued: amqp.MethodFrame[] = [];
  private problem: Error | null = null;
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(
    stream: net.Socket,
    private readonly run: RunState,
  ) {
    stream.on('data', (chunk: Buffer) => {
      try {
        this.queued.push(...this.reader.push(chunk));
      } catch (err) {
        this.problem = err instanceof Error ? err : new Error(String(err));
      }
      this.wake?.();
    });
    const end = (): void => {
      this.ended = true;
      this.wake?.();
    };
    stream.on('end', end);
    stream.on('close', end);
    stream.on('error', (err: Error) => {
      this.problem ??= err;
      this.wake?.();
    });
  }

  /**
   * The next frame. `after` names what was sent, for the message when the broker hangs up
   * instead; `onClosed` gives the failure a hang-up means at this step.
   */
  async next(after: string, onClosed?: () => CheckFailure): Promise<amqp.MethodFrame> {
    const { signal } = this.run;
    for (;;) {
      if (signal.aborted) throw signal.reason as CheckFailure;
      const frame = this.queued.shift();
      if (frame !== undefined) return frame;
      if (this.problem instanceof amqp.FrameError) {
        throw notAmqp(this.run.endpoint.host, this.problem.message);
      }
      if (this.problem !== null) throw this.problem;
      if (this.ended) {
        throw (
          onClosed?.() ??
          Object.assign(new Error(`The broker closed the connection after ${after}`), {
            code: 'ECONNRESET',
          })
        );
      }
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.wake = null;
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}
