import http2 from 'node:http2';
import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import type tls from 'node:tls';
import { defaults, type AssertionResult, type Header } from '@pagewatch/contract';
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
import {
  HEALTH_CHECK_PATH,
  healthRequestFrame,
  parseHealthResponse,
  servingStatusNames,
} from './health-proto.js';

export interface GrpcCheckSpec {
  host: string;
  port: number;
  /** Empty: the server as a whole. */
  service: string;
  tls: boolean;
  ignoreTls: boolean;
  /** Call metadata as sent (secret values opened), e.g. authorization. */
  metadata?: readonly Header[];
  timeoutMs: number;
  degradedThresholdMs: number | null;
  secureContext?: tls.SecureContext;
  lookup?: LookupFn;
}

/** A health answer is a few bytes; anything past this is not one. */
const MAX_BODY = 64 * 1024;

/** gRPC status codes worth their own words (grpc/doc/statuscodes.md). */
const GRPC_STATUS: Record<number, string> = {
  1: 'CANCELLED',
  2: 'UNKNOWN',
  3: 'INVALID_ARGUMENT',
  4: 'DEADLINE_EXCEEDED',
  5: 'NOT_FOUND',
  7: 'PERMISSION_DENIED',
  12: 'UNIMPLEMENTED',
  13: 'INTERNAL',
  14: 'UNAVAILABLE',
  16: 'UNAUTHENTICATED',
};

interface Answer {
  httpStatus: number;
  grpcStatus: number | null;
  grpcMessage: string;
  body: Buffer;
}

/**
 * Calls grpc.health.v1.Health/Check over HTTP/2 on a connection opened with the shared phase
 * timing (lookup, TCP, TLS with ALPN h2 and certificate capture); never throws.
 */
export async function runGrpcCheck(spec: GrpcCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  const host = spec.host.replace(/^\[(.*)\]$/, '$1');
  const what = spec.service === '' ? 'the server' : `service “${spec.service}”`;
  let assertion: AssertionResult | null = null;
  try {
    run.beginHop({ host, port: spec.port });
    const socket = await openConnection(
      { host, port: spec.port, secure: spec.tls },
      {
        ignoreTls: spec.ignoreTls,
        secureContext: spec.secureContext,
        lookup: spec.lookup,
        alpn: ['h2'],
      },
      run,
    );
    if (spec.tls && (socket as tls.TLSSocket).alpnProtocol !== 'h2') {
      throw new CheckFailure(
        'protocol_error',
        `${host}:${spec.port} did not agree to HTTP/2 in the TLS handshake: not a gRPC server`,
      );
    }
    run.phase = 'wait';
    const answer = await call(spec, socket, run);
    const end = performance.now();
    const status = judgeAnswer(answer, host, spec.port, what);
    assertion = {
      kind: 'grpc',
      target: `health of ${what}`,
      expected: 'SERVING',
      actual: status,
      passed: status === 'SERVING',
      soft: false,
    };
    if (status !== 'SERVING') {
      throw new CheckFailure(
        'grpc_not_serving',
        status === 'SERVICE_UNKNOWN'
          ? `The health service of ${host}:${spec.port} does not know ${what}`
          : `The health service of ${host}:${spec.port} says ${what} is ${status}`,
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
      phases: run.hop.phases(),
      httpStatus: null,
      errorCode: warning?.code ?? null,
      errorMessage: warning?.message ?? null,
      responseSize: answer.body.length,
      certExpiresAt: run.certExpiresAt,
      details: { certificate: run.certificate, assertions: [assertion] },
    };
  } catch (err) {
    const failure = classifyError(err, run.phase, run.endpoint);
    return {
      outcome: 'down',
      latencyMs: null,
      phases: run.hop.phases(),
      httpStatus: null,
      errorCode: failure.code,
      errorMessage: failure.message,
      responseSize: null,
      certExpiresAt: run.certExpiresAt,
      details: { certificate: run.certificate, assertions: assertion === null ? [] : [assertion] },
    };
  } finally {
    run.dispose();
  }
}

/** The serving status's name, or throws the failure the answer stands for. */
function judgeAnswer(answer: Answer, host: string, port: number, what: string): string {
  if (answer.httpStatus !== 200) {
    throw new CheckFailure(
      'protocol_error',
      `${host}:${port} answered HTTP ${answer.httpStatus}: not a gRPC endpoint`,
    );
  }
  if (answer.grpcStatus === null) {
    throw new CheckFailure('protocol_error', `${host}:${port} sent no gRPC status`);
  }
  if (answer.grpcStatus === 5) return 'SERVICE_UNKNOWN';
  if (answer.grpcStatus === 12) {
    throw new CheckFailure(
      'grpc_not_serving',
      `${host}:${port} has no health service (grpc.health.v1.Health is UNIMPLEMENTED)`,
    );
  }
  if (answer.grpcStatus === 16 || answer.grpcStatus === 7) {
    throw new CheckFailure(
      'auth_failed',
      `${host}:${port} refused the health check (${GRPC_STATUS[answer.grpcStatus]}${answer.grpcMessage ? `: ${answer.grpcMessage}` : ''})`,
    );
  }
  if (answer.grpcStatus !== 0) {
    const name = GRPC_STATUS[answer.grpcStatus] ?? String(answer.grpcStatus);
    throw new CheckFailure(
      'grpc_not_serving',
      `The health check of ${what} failed with ${name}${answer.grpcMessage ? `: ${answer.grpcMessage}` : ''}`,
    );
  }
  const status = parseHealthResponse(answer.body);
  if (status === null) {
    throw new CheckFailure('protocol_error', `${host}:${port} sent a malformed health answer`);
  }
  return servingStatusNames[status] ?? `status ${status}`;
}

/** Metadata as HTTP/2 headers: lower-case names, a repeated name's values joined by ", ". */
function metadataHeaders(metadata: readonly Header[]): http2.OutgoingHttpHeaders {
  const out: Record<string, string> = {};
  for (const { name, value } of metadata) {
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]}, ${value}` : value;
  }
  return out;
}

function call(spec: GrpcCheckSpec, socket: net.Socket, run: RunState): Promise<Answer> {
  const authority = `${spec.tls ? 'https' : 'http'}://${spec.host.includes(':') ? `[${spec.host}]` : spec.host}:${spec.port}`;
  const session = run.track(http2.connect(authority, { createConnection: () => socket }));
  return new Promise<Answer>((resolve, reject) => {
    const { signal } = run;
    const answer: Answer = {
      httpStatus: 0,
      grpcStatus: null,
      grpcMessage: '',
      body: Buffer.alloc(0),
    };
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => reject(signal.reason as CheckFailure);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (err: unknown) => {
      signal.removeEventListener('abort', onAbort);
      if (err === null) resolve(answer);
      else if (String((err as NodeJS.ErrnoException).code).startsWith('ERR_HTTP2')) {
        // An HTTP/1 server, a TLS terminator without h2: the frames make no sense to it.
        const said = err instanceof Error ? err.message : 'HTTP/2 error';
        reject(
          new CheckFailure(
            'protocol_error',
            `${spec.host}:${spec.port} does not speak gRPC over HTTP/2 (${said})`,
          ),
        );
      } else reject(err instanceof Error ? err : new Error('The HTTP/2 stream failed'));
    };
    session.once('error', settle);
    const remaining = Math.max(1, Math.floor(spec.timeoutMs - run.elapsed()));
    const stream = session.request({
      ...metadataHeaders(spec.metadata ?? []),
      ':method': 'POST',
      ':path': HEALTH_CHECK_PATH,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': `${remaining}m`,
    });
    run.hop.requestSent = performance.now();
    const readStatus = (headers: http2.IncomingHttpHeaders) => {
      const status = headers['grpc-status'];
      if (status !== undefined) answer.grpcStatus = Number(status);
      const message = headers['grpc-message'];
      if (typeof message === 'string')
        answer.grpcMessage = decodeURIComponent(message).slice(0, 300);
    };
    stream.on('response', (headers) => {
      run.hop.firstByte = performance.now();
      answer.httpStatus = Number(headers[':status'] ?? 0);
      // A trailers-only answer (an error) carries its status in the headers.
      readStatus(headers);
    });
    stream.on('trailers', readStatus);
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        stream.close();
        settle(new CheckFailure('protocol_error', 'The health answer was larger than 64 KiB'));
      } else chunks.push(chunk);
    });
    stream.on('end', () => {
      answer.body = Buffer.concat(chunks);
      settle(null);
    });
    stream.on('error', settle);
    stream.end(healthRequestFrame(spec.service));
  });
}
