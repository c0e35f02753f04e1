import { performance } from 'node:perf_hooks';
import type tls from 'node:tls';
import type { AssertionResult, Certificate, Header, WebSocketExpect } from '@pagewatch/contract';
import { defaults } from '@pagewatch/contract';
import WebSocket from 'ws';
import type { CheckContext, CheckRun } from '../types.js';
import { expiryWarning } from '../certificate-verdict.js';
import {
  CheckFailure,
  classifyError,
  degradedMessage,
  openConnection,
  roundMs,
  RunState,
  type LookupFn,
} from '../socket.js';
import { judgeReply, type ReplyRule } from './expect.js';

export interface WebSocketCheckSpec {
  url: string;
  send: string;
  expectKind: WebSocketExpect;
  expectPath: string;
  expectValue: string;
  ignoreTls: boolean;
  /** Headers of the upgrade request as sent (secret values opened), e.g. Authorization. */
  headers?: readonly Header[];
  timeoutMs: number;
  degradedThresholdMs: number | null;
  secureContext?: tls.SecureContext;
  lookup?: LookupFn;
}

/** Messages bigger than this end the check: a health reply is small. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Close codes that mean a normal end (1005: closed without a code). */
const NORMAL_CLOSE = new Set([1000, 1005]);

/**
 * Opens the connection with the shared phase timing (lookup, TCP, TLS and its certificate),
 * upgrades, optionally exchanges one message, then closes with 1000; never throws.
 */
export async function runWebSocketCheck(
  spec: WebSocketCheckSpec,
  ctx: CheckContext,
): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  const assertions: AssertionResult[] = [];
  try {
    const url = new URL(spec.url);
    const secure = url.protocol === 'wss:';
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port || (secure ? 443 : 80));
    run.beginHop({ host, port });
    const socket = await openConnection(
      { host, port, secure },
      { ignoreTls: spec.ignoreTls, secureContext: spec.secureContext, lookup: spec.lookup },
      run,
    );
    run.phase = 'wait';
    run.hop.requestSent = performance.now();
    const ws = new WebSocket(url, {
      createConnection: () => socket,
      perMessageDeflate: false,
      maxPayload: MAX_MESSAGE_BYTES,
      followRedirects: false,
      headers: upgradeHeaders(spec.headers ?? []),
    });
    run.track({ destroy: () => ws.terminate(), on: (e, l) => ws.on(e, l) });
    const session = new Session(ws, run);
    await session.opened();
    run.hop.firstByte = performance.now();
    let end = run.hop.firstByte;
    if (spec.send !== '') ws.send(spec.send);
    if (spec.expectKind !== 'none') {
      const rule: ReplyRule = {
        kind: spec.expectKind,
        path: spec.expectPath,
        value: spec.expectValue,
      };
      assertions.push(await session.reply(rule));
      end = performance.now();
    }
    const code = await session.close();
    if (!NORMAL_CLOSE.has(code)) {
      throw new CheckFailure(
        'websocket_closed',
        `${url.host} answered the close with code ${code}${session.reason}`,
      );
    }
    const latencyMs = roundMs(end - run.start);
    const warning =
      expiryWarning(run.certificate, host, defaults.tlsWarnDays) ??
      (spec.degradedThresholdMs !== null && latencyMs > spec.degradedThresholdMs
        ? {
            code: 'degraded_latency' as const,
            message: degradedMessage(latencyMs, spec.degradedThresholdMs),
          }
        : null);
    return {
      outcome: warning === null ? 'up' : 'degraded',
      latencyMs,
      phases: { ...run.hop.phases(), download: null },
      httpStatus: 101,
      errorCode: warning?.code ?? null,
      errorMessage: warning?.message ?? null,
      responseSize: session.bytes,
      certExpiresAt: run.certExpiresAt,
      details: { certificate: run.certificate, assertions },
    };
  } catch (err) {
    const failure = classifyError(err, run.phase, run.endpoint);
    return failedRun(run, failure, assertions);
  } finally {
    run.dispose();
  }
}

/** The user's headers for `ws`; a repeated name's values joined by ", " as HTTP allows. */
function upgradeHeaders(headers: readonly Header[]): Record<string, string> {
  const out: Record<string, string> = {};
  const names = new Map<string, string>();
  for (const { name, value } of headers) {
    const key = names.get(name.toLowerCase()) ?? name;
    names.set(name.toLowerCase(), key);
    out[key] = key in out ? `${out[key]}, ${value}` : value;
  }
  return out;
}

/** A message's bytes, however ws delivered them, as UTF-8 text. */
function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** One upgraded connection's events as awaitable steps, each bounded by the run's deadline. */
class Session {
  bytes = 0;
  reason = '';
  private lastMessage: string | null = null;
  private closeCode: number | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly run: RunState,
  ) {
    ws.on('message', (data: WebSocket.RawData) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      this.bytes += buf.length;
    });
    ws.on('close', (code: number, reason: Buffer) => {
      this.closeCode = code;
      this.reason = reason.length > 0 ? ` (${reason.toString('utf8').slice(0, 200)})` : '';
    });
  }

  opened(): Promise<void> {
    return this.until<void>((settle, fail) => {
      this.ws.once('open', () => settle());
      this.ws.once('unexpected-response', (_req, res) => {
        const status = res.statusCode ?? 0;
        this.run.status = status;
        // 401 and 403 refuse the credentials (or their absence): the code every type uses.
        fail(
          new CheckFailure(
            status === 401 || status === 403 ? 'auth_failed' : 'http_status',
            `${this.run.endpoint.host} answered HTTP ${status} instead of switching to WebSocket (101)${status === 401 || status === 403 ? ': the upgrade was refused; check the headers it sends' : ''}`,
          ),
        );
      });
      this.ws.once('error', (err) => fail(err));
    });
  }

  /** The first message that passes; at the deadline, the last one seen, judged as failed. */
  reply(rule: ReplyRule): Promise<AssertionResult> {
    return this.until<AssertionResult>(
      (settle, fail) => {
        this.ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
          const text = isBinary ? null : rawText(data);
          this.lastMessage = text ?? `(binary, ${String((data as Buffer).length)} bytes)`;
          const judged = judgeReply(rule, this.lastMessage);
          if (judged.passed) settle(judged);
        });
        this.ws.once('close', (code: number) =>
          fail(
            new CheckFailure(
              'websocket_closed',
              `The server closed the connection (code ${code}${this.reason}) before the expected reply`,
            ),
          ),
        );
        this.ws.once('error', (err) => fail(err));
      },
      () => {
        const judged = judgeReply(rule, this.lastMessage);
        const what = rule.kind === 'json' ? 'json_assertion' : 'keyword_missing';
        const got =
          this.lastMessage === null
            ? 'no message came'
            : `the last message was ${judged.actual ?? ''}`;
        return new CheckFailure(
          what,
          `Expected a message whose ${judged.target.replace(' of a message', '')} ${judged.expected}, but ${got}`,
        );
      },
    );
  }

  /** Sends close 1000 and waits for the peer's close; resolves with the code it answered. */
  close(): Promise<number> {
    if (this.closeCode !== null) return Promise.resolve(this.closeCode);
    return this.until<number>((settle, fail) => {
      this.ws.once('close', (code: number) => settle(code));
      this.ws.once('error', (err) => fail(err));
      this.ws.close(1000);
    });
  }

  private until<T>(
    start: (settle: (v: T) => void, fail: (e: unknown) => void) => void,
    onDeadline?: () => CheckFailure,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const { signal } = this.run;
      let done = false;
      const finish = (f: () => void) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        f();
      };
      const onAbort = () => {
        const reason = signal.reason as CheckFailure;
        finish(() =>
          reject(onDeadline !== undefined && reason.code === 'timeout' ? onDeadline() : reason),
        );
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      start(
        (v) => finish(() => resolve(v)),
        (e) => finish(() => reject(e instanceof Error ? e : new Error(String(e)))),
      );
    });
  }
}

function failedRun(run: RunState, failure: CheckFailure, assertions: AssertionResult[]): CheckRun {
  const certificate: Certificate | null = run.certificate;
  return {
    outcome: 'down',
    latencyMs: null,
    phases: { ...run.hop.phases(), download: null },
    httpStatus: run.status,
    errorCode: failure.code,
    errorMessage: failure.message,
    responseSize: null,
    certExpiresAt: run.certExpiresAt,
    details: { certificate, assertions },
  };
}
