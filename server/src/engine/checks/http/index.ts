import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type {
  Assertion,
  AssertionResult,
  BodyType,
  CheckDetails,
  Header,
  HttpMethod,
  IpFamily,
} from '@pagewatch/contract';
import type { CheckContext, CheckRun } from '../types.js';
import { degradedMessage } from './assess.js';
import { judgeAssertion, judgeStatus, needsBody, type Judged } from './assertions.js';
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

/** Request authentication with its secret opened, for this one check only. */
export type HttpAuth =
  | { kind: 'none' }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'bearer'; token: string };

export interface HttpCheckSpec {
  url: string;
  method: HttpMethod;
  headers: Header[];
  bodyType: BodyType;
  body: string;
  auth: HttpAuth;
  acceptedStatusCodes: string[];
  followRedirects: boolean;
  maxRedirects: number;
  ipFamily: IpFamily;
  ignoreTls: boolean;
  assertions: Assertion[];
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
    return failedRun(run, classifyError(err, run.phase, run.endpoint), []);
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

const CONTENT_TYPES: Partial<Record<BodyType, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
};

function authorization(auth: HttpAuth): string | null {
  if (auth.kind === 'basic') {
    return `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
  }
  return auth.kind === 'bearer' ? `Bearer ${auth.token}` : null;
}

/**
 * The headers the settings imply (Content-Type of the body type, Authorization of the auth)
 * ahead of the user's; a header the user set by the same name wins. They travel as request
 * headers so a redirect drops them like any other (Authorization to another origin, body
 * headers when the method becomes GET).
 */
export function requestHeaders(
  spec: Pick<HttpCheckSpec, 'bodyType' | 'auth' | 'headers'>,
): Header[] {
  const implied: Header[] = [];
  const type = CONTENT_TYPES[spec.bodyType];
  if (type !== undefined) implied.push({ name: 'Content-Type', value: type });
  const auth = authorization(spec.auth);
  if (auth !== null) implied.push({ name: 'Authorization', value: auth });
  const own = new Set(spec.headers.map((h) => h.name.toLowerCase()));
  return [...implied.filter((h) => !own.has(h.name.toLowerCase())), ...spec.headers];
}

const FAMILIES = { auto: 0, ipv4: 4, ipv6: 6 } as const;

async function performCheck(spec: HttpCheckSpec, run: RunState): Promise<CheckRun> {
  const connect: ConnectOptions = {
    ignoreTls: spec.ignoreTls,
    // Built before the first hop so parsing the roots is not timed as part of a TLS handshake.
    secureContext: secureContextFor(spec.ca),
    lookup: spec.lookup,
    family: FAMILIES[spec.ipFamily],
  };
  let hop: HopRequest = {
    url: parseUrl(spec.url),
    method: spec.method,
    headers: requestHeaders(spec),
    body: spec.bodyType === 'none' ? '' : spec.body,
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

/** The first failure among the results, hard ones first; null when all passed. */
function decisive(judged: readonly Judged[]): Judged | null {
  return (
    judged.find((j) => j.failure !== null && !j.result.soft) ??
    judged.find((j) => j.failure !== null) ??
    null
  );
}

async function finishCheck(
  spec: HttpCheckSpec,
  run: RunState,
  res: IncomingMessage,
  status: number,
): Promise<CheckRun> {
  const statusJudged = judgeStatus(status, spec.acceptedStatusCodes);
  // A refused status says enough; its body is not worth downloading.
  if (statusJudged.failure !== null) {
    return failedRun(run, statusJudged.failure, [statusJudged.result]);
  }
  run.phase = 'download';
  const maxBytes = spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const keep = spec.assertions.some(needsBody);
  const body = await readBody(res, { keep, maxBytes }, run);
  run.hop.bodyEnd = performance.now();
  const latencyMs = roundMs(run.hop.bodyEnd - run.start);
  const facts = {
    status,
    headers: res.headers,
    body: body.content,
    truncated: body.truncated,
    wireBytes: body.wireBytes,
    latencyMs,
    maxBodyBytes: maxBytes,
  };
  const judged = [statusJudged, ...spec.assertions.map((a) => judgeAssertion(a, facts))];
  const results = judged.map((j) => j.result);
  const failed = decisive(judged);
  if (failed?.failure && !failed.result.soft) return failedRun(run, failed.failure, results);
  const threshold = spec.degradedThresholdMs;
  const slow = threshold !== null && latencyMs > threshold;
  const degraded = failed?.failure ?? null;
  return {
    outcome: degraded !== null || slow ? 'degraded' : 'up',
    latencyMs,
    phases: run.hop.phases(),
    httpStatus: status,
    errorCode: degraded?.code ?? (slow ? 'degraded_latency' : null),
    errorMessage: degraded?.message ?? (slow ? degradedMessage(latencyMs, threshold) : null),
    responseSize: body.wireBytes,
    certExpiresAt: run.certExpiresAt,
    details: detailsOf(run, results),
  };
}

function detailsOf(run: RunState, assertions: AssertionResult[]): CheckDetails {
  return { certificate: run.certificate, assertions };
}

/**
 * A down result keeping what was observed: phases done so far, the status and certificate.
 * Latency is only reported when a response arrived; a failed connection has no total.
 */
function failedRun(run: RunState, failure: CheckFailure, assertions: AssertionResult[]): CheckRun {
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
    details: detailsOf(run, assertions),
  };
}
