import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Header, HttpMethod } from '@pagewatch/contract';
import { CheckFailure } from './errors.js';
import { waitFor, type RunState } from './run.js';

/** What one hop sends. */
export interface HopRequest {
  url: URL;
  method: HttpMethod;
  headers: Header[];
  body: string;
}

export const USER_AGENT = 'Pagewatch/0.1';
const METHODS_WITH_BODY = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);

/** Defaults first; a user header of the same name (any case) replaces the default. */
export function buildHeaders(hop: HopRequest): OutgoingHttpHeaders {
  const defaults: Header[] = [
    { name: 'Host', value: hop.url.host },
    { name: 'User-Agent', value: USER_AGENT },
    { name: 'Accept', value: '*/*' },
    { name: 'Accept-Encoding', value: 'gzip, br, deflate' },
  ];
  if (hop.body !== '' || METHODS_WITH_BODY.has(hop.method)) {
    defaults.push({ name: 'Content-Length', value: String(Buffer.byteLength(hop.body)) });
  }
  const userNames = new Set(hop.headers.map((h) => h.name.toLowerCase()));
  const merged = new Map<string, { name: string; values: string[] }>();
  for (const h of [
    ...defaults.filter((d) => !userNames.has(d.name.toLowerCase())),
    ...hop.headers,
  ]) {
    const key = h.name.toLowerCase();
    const entry = merged.get(key);
    if (entry === undefined) merged.set(key, { name: h.name, values: [h.value] });
    else entry.values.push(h.value);
  }
  const out: OutgoingHttpHeaders = {};
  for (const { name, values } of merged.values())
    out[name] = values.length === 1 ? values[0] : values;
  return out;
}

/** Writes the request on an open connection and resolves with the response head. */
export async function sendRequest(
  socket: Socket,
  hop: HopRequest,
  run: RunState,
): Promise<IncomingMessage> {
  run.throwIfStopped();
  run.phase = 'wait';
  const timer = run.hop;
  const req = run.track(
    http.request({
      method: hop.method,
      path: `${hop.url.pathname}${hop.url.search}`,
      headers: buildHeaders(hop),
      setHost: false,
      // The connection is already open and verified; no agent, so nothing is pooled or reused.
      createConnection: () => socket,
    }),
  );
  req.once('socket', (s: Socket) => {
    s.once('data', () => {
      timer.firstByte ??= performance.now();
    });
  });
  req.once('finish', () => {
    timer.requestSent = performance.now();
  });
  if (hop.body === '') req.end();
  else req.end(hop.body);
  timer.requestSent = performance.now();
  const [res] = (await waitFor(run, req, 'response')) as [IncomingMessage];
  timer.firstByte ??= performance.now();
  return run.track(res);
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The Location of a redirect response; null for anything that is not one. */
export function redirectLocation(res: IncomingMessage): string | null {
  if (res.statusCode === undefined || !REDIRECT_STATUSES.has(res.statusCode)) return null;
  const location = res.headers.location;
  return typeof location === 'string' && location !== '' ? location : null;
}

const BODY_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
]);
// As browsers do (Fetch §4.4): credentials do not follow a redirect to another origin.
const ORIGIN_BOUND_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'host']);

/** The request to send after a redirect, per RFC 9110 §15.4 and browser practice. */
export function nextHop(hop: HopRequest, status: number, location: string): HopRequest {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new CheckFailure(
      'protocol_error',
      `Redirect to an invalid URL: ${location.slice(0, 200)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CheckFailure(
      'protocol_error',
      `Redirect to an unsupported URL: ${url.href.slice(0, 200)}`,
    );
  }
  const toGet =
    status === 303
      ? hop.method !== 'GET' && hop.method !== 'HEAD'
      : (status === 301 || status === 302) && hop.method === 'POST';
  let headers = hop.headers;
  if (toGet) headers = headers.filter((h) => !BODY_HEADERS.has(h.name.toLowerCase()));
  if (url.origin !== hop.url.origin) {
    headers = headers.filter((h) => !ORIGIN_BOUND_HEADERS.has(h.name.toLowerCase()));
  }
  return {
    url,
    method: toGet ? 'GET' : hop.method,
    headers,
    body: toGet ? '' : hop.body,
  };
}
