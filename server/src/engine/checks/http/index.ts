import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { statusAccepted, type Header, type HttpMethod, type Keyword } from '@pagewatch/contract';
import type { CheckContext, CheckRun } from '../types.js';
import { degradedMessage, keywordFailure, statusFailure } from './assess.js';
import { readBody } from './body.js';
import {
  openConnection,
  secureContextFor,
  type ConnectOptions,
  type LookupFn,
  type Target,
} from './connect.js';
import { CheckFailure, classifyError } from './errors.js';
import { nextHop, redirectLocation, sendRequest, type HopRequest } from './request.js';
import { RunState, untilStopped } from './run.js';
import { roundMs } from './timing.js';

export type { LookupFn } from './connect.js';
export { USER_AGENT } from './request.js';

/** Decoded body bytes read for assertions (SPEC §9). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface HttpCheckSpec {
  url: string;
  method: HttpMethod;
  headers: Header[];
  body: string;
  acceptedStatusCodes: string[];
  followRedirects: boolean;
  maxRedirects: number;
  keyword: Keyword | null;
  ignoreTls: boolean;
  /** Overall deadline for the whole check, redirects included. */
  timeoutMs: number;
  degradedThresholdMs: number | null;
  /** Extra trusted CA certificates (PEM), for private CAs; added to Node's roots. */
  ca?: string[];
  /** Default 1 MiB (SPEC §9). */
  maxBodyBytes?: number;
  /** Replaces the system resolver (address pinning, private-address filtering, tests). */
  lookup?: LookupFn;
}

/** Runs one HTTP(S) check with per-phase timing; never throws, always closes what it opened. */
export async function runHttpCheck(spec: HttpCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  try {
    return await untilStopped(run, performCheck(spec, run));
  } catch (err) {
    return failedRun(run, classifyError(err, run.phase, run.endpoint));
  } finally {
    run.dispose();
  }
}

function parseUrl(text: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // Reported below.
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CheckFailure('internal_error', `Not an http(s) URL: ${text.slice(0, 200)}`);
  }
  return url;
}

function targetOf(url: URL): Target {
  const secure = url.protocol === 'https:';
  // URL keeps IPv6 literals bracketed; sockets want them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (secure ? 443 : 80) : Number(url.port);
  return { host, port, secure };
}

async function performCheck(spec: HttpCheckSpec, run: RunState): Promise<CheckRun> {
  const connect: ConnectOptions = {
    ignoreTls: spec.ignoreTls,
    // Built before the first hop so parsing the roots is not timed as part of a TLS handshake.
    secureContext: secureContextFor(spec.ca),
    lookup: spec.lookup,
  };
  let hop: HopRequest = {
    url: parseUrl(spec.url),
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
  };
  for (let redirects = 0; ; redirects++) {
    const target = targetOf(hop.url);
    run.beginHop(target);
    const socket = await openConnection(target, connect, run);
    const res = await sendRequest(socket, hop, run);
    const status = res.statusCode ?? 0;
    run.status = status;
    const location = spec.followRedirects ? redirectLocation(res) : null;
    if (location === null) return finishCheck(spec, run, res, status);
    if (redirects >= spec.maxRedirects) {
      throw new CheckFailure(
        'too_many_redirects',
        `More than ${spec.maxRedirects} redirects (the next one was to ${location.slice(0, 200)})`,
      );
    }
    hop = nextHop(hop, status, location);
  }
}

async function finishCheck(
  spec: HttpCheckSpec,
  run: RunState,
  res: IncomingMessage,
  status: number,
): Promise<CheckRun> {
  if (!statusAccepted(status, spec.acceptedStatusCodes)) {
    throw statusFailure(status, spec.acceptedStatusCodes);
  }
  run.phase = 'download';
  const maxBytes = spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const body = await readBody(res, { keep: spec.keyword !== null, maxBytes }, run);
  run.hop.bodyEnd = performance.now();
  const latencyMs = roundMs(run.hop.bodyEnd - run.start);
  if (spec.keyword !== null && body.content !== null) {
    const failure = keywordFailure(spec.keyword, body.content, body.truncated, maxBytes);
    if (failure !== null) throw failure;
  }
  const threshold = spec.degradedThresholdMs;
  const degraded = threshold !== null && latencyMs > threshold;
  return {
    outcome: degraded ? 'degraded' : 'up',
    latencyMs,
    phases: run.hop.phases(),
    httpStatus: status,
    errorCode: degraded ? 'degraded_latency' : null,
    errorMessage: degraded ? degradedMessage(latencyMs, threshold) : null,
    responseSize: body.wireBytes,
    certExpiresAt: run.certExpiresAt,
  };
}

/**
 * A down result keeping what was observed: phases done so far, the status and certificate.
 * Latency is only reported when a response arrived; a failed connection has no total.
 */
function failedRun(run: RunState, failure: CheckFailure): CheckRun {
  const end = run.hop.bodyEnd ?? performance.now();
  return {
    outcome: 'down',
    latencyMs: run.status === null ? null : roundMs(end - run.start),
    phases: run.hop.phases(),
    httpStatus: run.status,
    errorCode: failure.code,
    errorMessage: failure.message,
    responseSize: run.responseSize,
    certExpiresAt: run.certExpiresAt,
  };
}
