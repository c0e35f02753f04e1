import type { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type tls from 'node:tls';
import { MqttClient, type IClientOptions } from 'mqtt';
import type { AssertionResult, MqttMatch, MqttMode } from '@pagewatch/contract';
import { deliveredRun, failedRun, upgradeToTls } from '../protocol-run.js';
import { CheckFailure, openConnection, RunState, waitFor, type LookupFn } from '../socket.js';
import type { CheckContext, CheckRun } from '../types.js';
import { judgeMessage, type MessageRule } from './message.js';

export interface MqttCheckSpec {
  host: string;
  port: number;
  username: string;
  /** Opened from the sealed credential; '' for none. */
  password: string;
  tls: boolean;
  ignoreTrust: boolean;
  warnDays: number;
  mode: MqttMode;
  topic: string;
  match: MqttMatch;
  jsonPath: string;
  expected: string;
  timeoutMs: number;
  degradedThresholdMs: number | null;
  secureContext?: tls.SecureContext;
  lookup?: LookupFn;
}

/** MQTT 3.1.1 CONNACK return codes (v5 reason codes 0x86, 0x87 mean the same). */
const AUTH_CODES = new Set([4, 5, 0x86, 0x87]);
const CONNACK_TEXT: Record<number, string> = {
  1: 'it does not speak MQTT 3.1.1',
  2: 'it rejected the client identifier',
  3: 'the MQTT service is unavailable',
  4: 'the user name or password is wrong',
  5: 'this client is not authorized to connect',
};

/**
 * Connects (TLS judged like a TLS monitor), authenticates, and per mode waits for a matching
 * message or for its own probe to come back; never throws, always closes what it opened.
 */
export async function runMqttCheck(spec: MqttCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  const assertions: AssertionResult[] = [];
  let client: MqttClient | null = null;
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
    run.hop.requestSent = performance.now();
    client = new MqttClient(() => stream, clientOptions(spec));
    // Errors come through the waits below; one after the end must not crash the process.
    client.on('error', () => undefined);
    await connected(client, run, host);
    run.hop.firstByte = performance.now();
    if (spec.mode !== 'connect') {
      await subscribed(client, spec.topic, run);
      const rule: MessageRule =
        spec.mode === 'roundtrip'
          ? { kind: 'probe', probe: `pagewatch-probe ${randomBytes(9).toString('base64url')}` }
          : { kind: spec.match, expected: spec.expected, jsonPath: spec.jsonPath };
      if (rule.kind === 'probe') client.publish(spec.topic, rule.probe, { qos: 0 });
      const received = await matchingMessage(client, spec, rule, run, assertions);
      return deliveredRun(run, spec.degradedThresholdMs, {
        warning: upgraded?.warning,
        assertions,
        responseSize: received,
      });
    }
    return deliveredRun(run, spec.degradedThresholdMs, { warning: upgraded?.warning });
  } catch (err) {
    return failedRun(run, err, assertions);
  } finally {
    client?.end(true);
    run.dispose();
  }
}

function clientOptions(spec: MqttCheckSpec): IClientOptions {
  return {
    protocolVersion: 4,
    clientId: `pagewatch-${randomBytes(6).toString('hex')}`,
    clean: true,
    // One connection per check: no reconnects, no keep-alive pings, the run's deadline rules.
    reconnectPeriod: 0,
    keepalive: 0,
    connectTimeout: 2 ** 31 - 1,
    ...(spec.username === '' ? {} : { username: spec.username }),
    ...(spec.password === '' ? {} : { password: spec.password }),
  };
}

/** Waits for the CONNACK; a refusal is named by its return code. */
async function connected(client: MqttClient, run: RunState, host: string): Promise<void> {
  try {
    await waitFor(run, client as unknown as EventEmitter, 'connect');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'number') {
      const why = CONNACK_TEXT[code] ?? `it answered with return code ${code}`;
      throw new CheckFailure(
        AUTH_CODES.has(code) ? 'auth_failed' : 'protocol_error',
        `The MQTT broker at ${host} refused the connection: ${why}`,
      );
    }
    if (err instanceof CheckFailure || typeof code === 'string') throw err;
    throw new CheckFailure(
      'protocol_error',
      `${host}:${run.endpoint.port} did not answer as an MQTT broker (${errorText(err)})`,
    );
  }
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Subscribes at QoS 0; a refused subscription (SUBACK 0x80) is the broker's access control. */
function subscribed(client: MqttClient, topic: string, run: RunState): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const { signal } = run;
    const onAbort = (): void => reject(signal.reason as CheckFailure);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    client.subscribe(topic, { qos: 0 }, (err, granted) => {
      signal.removeEventListener('abort', onAbort);
      if (err) return reject(err);
      if (granted?.some((g) => g.qos === 128)) {
        return reject(
          new CheckFailure(
            'auth_failed',
            `The MQTT broker refused the subscription to “${topic}” (not authorized?)`,
          ),
        );
      }
      resolve();
    });
  });
}

/**
 * Resolves with the payload size of the first message on the topic that passes the rule. At the
 * deadline: a timeout when nothing came, the rule's failure for the last message when some did.
 */
function matchingMessage(
  client: MqttClient,
  spec: MqttCheckSpec,
  rule: MessageRule,
  run: RunState,
  assertions: AssertionResult[],
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const { signal } = run;
    let last: { failure: CheckFailure; assertion: AssertionResult } | null = null;
    const cleanup = (): void => {
      client.off('message', onMessage);
      client.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
    };
    const onMessage = (_topic: string, payload: Buffer): void => {
      const verdict = judgeMessage(rule, payload);
      if (verdict.failure === null) {
        cleanup();
        assertions.push(verdict.assertion);
        resolve(payload.length);
      } else {
        last = { failure: verdict.failure, assertion: verdict.assertion };
      }
    };
    const onClose = (): void => {
      cleanup();
      reject(Object.assign(new Error('The broker closed the connection'), { code: 'ECONNRESET' }));
    };
    const onAbort = (): void => {
      cleanup();
      const reason = signal.reason as CheckFailure;
      if (reason.code !== 'timeout') return reject(reason);
      if (last !== null) {
        assertions.push(last.assertion);
        return reject(last.failure);
      }
      const what = rule.kind === 'probe' ? 'The probe published to' : 'No message arrived on';
      reject(
        new CheckFailure(
          'timeout',
          rule.kind === 'probe'
            ? `${what} “${spec.topic}” did not come back within ${spec.timeoutMs} ms`
            : `${what} “${spec.topic}” within ${spec.timeoutMs} ms`,
        ),
      );
    };
    if (signal.aborted) return onAbort();
    client.on('message', onMessage);
    client.on('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
