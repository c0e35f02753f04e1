import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { ChannelError, type SendContext } from './channel.js';
import { assertAllowedHost, guardedLookup } from './address-guard.js';
import { describeNetworkError, httpError, TimedOut } from './outbound-errors.js';

export { httpError, parseRetryAfter } from './outbound-errors.js';

/** Bytes of a response body kept; the rest is never read. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
const MAX_SAME_HOST_REDIRECTS = 3;

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most MAX_RESPONSE_BYTES, decoded as UTF-8. */
  body: string;
}

export type OutboundContext = Pick<SendContext, 'timeoutMs' | 'signal' | 'egress'>;

/**
 * Sends one notification request and returns the answer whatever its status. Network failures,
 * the time limit, refused addresses and cross-host redirects throw ChannelError. The time limit
 * covers everything: lookup, connect, redirects and reading the body.
 */
export async function outboundRequest(
  req: OutboundRequest,
  ctx: OutboundContext,
): Promise<OutboundResponse> {
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  let current = { ...req, method: req.method ?? 'POST' };
  const origin = parseUrl(req.url, 'invalid URL');
  for (let hop = 0; ; hop++) {
    const res = await once(current, ctx, signal, timeout);
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
    const next = parseUrl(location, `HTTP ${res.status}: invalid redirect`, current.url);
    if (next.host !== origin.host) {
      throw new ChannelError(
        `HTTP ${res.status}: redirect to another host (${next.host}) not followed`,
        true,
      );
    }
    if (origin.protocol === 'https:' && next.protocol !== 'https:') {
      throw new ChannelError(`HTTP ${res.status}: redirect from https to http not followed`, true);
    }
    if (hop >= MAX_SAME_HOST_REDIRECTS) {
      throw new ChannelError(`too many redirects (more than ${MAX_SAME_HOST_REDIRECTS})`, true);
    }
    current = redirected(current, res.status, next.href);
  }
}

function parseUrl(value: string, what: string, base?: string): URL {
  try {
    return new URL(value, base);
  } catch {
    throw new ChannelError(what, true);
  }
}

/** Like outboundRequest but a non-2xx answer throws the mapped ChannelError. */
export async function outboundSend(
  req: OutboundRequest,
  ctx: OutboundContext,
): Promise<OutboundResponse> {
  const res = await outboundRequest(req, ctx);
  if (res.status < 200 || res.status >= 300) throw httpError(res);
  return res;
}

/** POSTs JSON and expects a 2xx. */
export function postJson(
  url: string,
  payload: unknown,
  ctx: OutboundContext,
  headers: Record<string, string> = {},
): Promise<OutboundResponse> {
  return outboundSend(
    {
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(payload),
    },
    ctx,
  );
}

// 303, and 301/302 after a POST, turn into a GET without a body, as browsers do.
function redirected(
  req: OutboundRequest & { method: string },
  status: number,
  url: string,
): OutboundRequest & { method: string } {
  const toGet = status === 303 || ((status === 301 || status === 302) && req.method === 'POST');
  if (!toGet) return { ...req, url };
  const headers = { ...req.headers };
  delete headers['content-type'];
  return { url, method: 'GET', headers };
}

function once(
  req: OutboundRequest & { method: string },
  ctx: OutboundContext,
  signal: AbortSignal,
  timeout: AbortSignal,
): Promise<OutboundResponse> {
  const url = new URL(req.url);
  assertAllowedHost(url.hostname, ctx.egress);
  const client = url.protocol === 'https:' ? https : http;
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  const headers: Record<string, string> = { 'user-agent': 'Pagewatch', ...req.headers };
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const fail = (err: unknown) => {
      if (timeout.aborted) return reject(new TimedOut(ctx.timeoutMs));
      reject(
        signal.aborted ? new ChannelError('cancelled', false) : describeNetworkError(err, url),
      );
    };
    if (signal.aborted) return fail(signal.reason);
    const request = client.request(url, {
      method: req.method,
      headers,
      lookup: guardedLookup(ctx.egress),
      agent: false,
      signal,
    });
    request.on('error', fail);
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        res.destroy();
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
        });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) done();
      });
      res.on('end', done);
      res.on('error', fail);
    });
    request.end(body);
  });
}
