import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import { noPhases } from '../../../domain/check-run.js';
import type { CheckContext, CheckRun } from '../types.js';
import { CheckFailure, degradedMessage, roundMs } from '../socket.js';

export interface MongodbCheckSpec {
  host: string;
  port: number;
  /** The database authenticated against (authSource) and pinged. */
  database: string;
  /** '' connects without authenticating. */
  username: string;
  password: string;
  tls: boolean;
  ignoreTrust: boolean;
  timeoutMs: number;
  degradedThresholdMs: number | null;
}

/**
 * Connects to one server (no replica-set discovery), authenticates when a user is given and
 * runs `ping`; never throws, always closes the client. The official driver opens its own
 * sockets, so phases are not split and the certificate is verified by the driver (trust and
 * name, unless ignored) but not captured: see ADR 0044. Not tested against a real server here.
 */
export async function runMongodbCheck(
  spec: MongodbCheckSpec,
  ctx: CheckContext,
): Promise<CheckRun> {
  const start = performance.now();
  const host = spec.host.includes(':') && !spec.host.startsWith('[') ? `[${spec.host}]` : spec.host;
  const timer = new AbortController();
  const client = new MongoClient(`mongodb://${host}:${spec.port}/`, {
    directConnection: true,
    appName: 'pagewatch',
    // A little before the check's deadline, so its error (with the socket's cause) comes first.
    serverSelectionTimeoutMS: Math.max(100, spec.timeoutMs - 150),
    connectTimeoutMS: spec.timeoutMs,
    socketTimeoutMS: spec.timeoutMs,
    maxPoolSize: 1,
    minPoolSize: 0,
    retryReads: false,
    retryWrites: false,
    tls: spec.tls,
    ...(spec.tls && spec.ignoreTrust ? { tlsAllowInvalidCertificates: true } : {}),
    ...(spec.username === ''
      ? {}
      : {
          auth: { username: spec.username, password: spec.password },
          authSource: spec.database,
        }),
  });
  const deadline = setTimeout(() => timer.abort(), spec.timeoutMs);
  const stop = (): void => timer.abort();
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const ping = client.db(spec.database).command({ ping: 1 });
    const aborted = new Promise<never>((_, reject) => {
      const fail = (): void => reject(Object.assign(new Error('deadline'), { name: 'Deadline' }));
      if (timer.signal.aborted) fail();
      else timer.signal.addEventListener('abort', fail, { once: true });
    });
    ping.catch(() => undefined);
    const reply = await Promise.race([ping, aborted]);
    if (reply.ok !== 1) {
      throw new CheckFailure('unexpected_value', `ping answered ok: ${String(reply.ok)}`);
    }
    const latencyMs = roundMs(performance.now() - start);
    const slow = spec.degradedThresholdMs !== null && latencyMs > spec.degradedThresholdMs;
    return {
      outcome: slow ? 'degraded' : 'up',
      latencyMs,
      phases: noPhases,
      httpStatus: null,
      errorCode: slow ? 'degraded_latency' : null,
      errorMessage:
        slow && spec.degradedThresholdMs !== null
          ? degradedMessage(latencyMs, spec.degradedThresholdMs)
          : null,
      responseSize: null,
      certExpiresAt: null,
      details: { certificate: null, assertions: [] },
    };
  } catch (err) {
    const failure = classifyMongoError(err, `${spec.host}:${spec.port}`, spec.timeoutMs);
    return {
      outcome: 'down',
      latencyMs: null,
      phases: noPhases,
      httpStatus: null,
      errorCode: failure.code,
      errorMessage: failure.message,
      responseSize: null,
      certExpiresAt: null,
      details: { certificate: null, assertions: [] },
    };
  } finally {
    clearTimeout(deadline);
    ctx.signal.removeEventListener('abort', stop);
    await client.close(true).catch(() => undefined);
  }
}

/** The driver's cause, as deep as it goes: server selection wraps the socket's error. */
function causes(err: unknown): string[] {
  const out: string[] = [];
  let current: unknown = err;
  for (let i = 0; i < 5 && current instanceof Error; i++) {
    const codeName = (current as { codeName?: unknown }).codeName;
    out.push(`${current.name} ${typeof codeName === 'string' ? codeName : ''} ${current.message}`);
    const reason = (current as { reason?: { servers?: Map<string, { error?: unknown }> } }).reason;
    const fromServer = reason?.servers ? [...reason.servers.values()][0]?.error : undefined;
    current = fromServer ?? (current as { cause?: unknown }).cause;
  }
  return out;
}

export function classifyMongoError(err: unknown, at: string, timeoutMs: number): CheckFailure {
  if (err instanceof CheckFailure) return err;
  const text = causes(err).join(' | ');
  if (/AuthenticationFailed|Authentication failed/i.test(text)) {
    return new CheckFailure('auth_failed', `MongoDB at ${at} refused the login`);
  }
  if (/ECONNREFUSED/.test(text)) {
    return new CheckFailure('connect_refused', `Connection to ${at} was refused`);
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) {
    return new CheckFailure('dns_not_found', `DNS lookup for ${at} failed`);
  }
  if (/self[- ]signed|unable to verify|certificate/i.test(text)) {
    return new CheckFailure('tls_cert_untrusted', `The TLS certificate of ${at} was rejected`);
  }
  if (/Deadline|timed out|Timeout|ETIMEDOUT/i.test(text)) {
    return new CheckFailure(
      'timeout',
      `MongoDB at ${at} did not answer ping within ${timeoutMs} ms`,
    );
  }
  if (/ECONNRESET|connection .* closed/i.test(text)) {
    return new CheckFailure(
      'connection_reset',
      `MongoDB at ${at} closed the connection before it answered`,
    );
  }
  if (/MongoServerError/.test(text)) {
    return new CheckFailure('query_failed', `ping failed: ${text.split(' | ')[0] ?? ''}`);
  }
  return new CheckFailure('protocol_error', `MongoDB at ${at}: ${text.split(' | ')[0] ?? ''}`);
}
