import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedBody } from '../../status-pages/cache.js';

type Encoding = 'br' | 'gzip' | 'identity';

/** The best encoding the client accepts (q > 0), preferring brotli, then gzip. */
export function negotiate(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (e: string) => (accepted.get(e) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : 'identity';
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

function notModified(request: FastifyRequest, body: CachedBody): boolean {
  const match = request.headers['if-none-match'];
  if (match !== undefined) {
    if (match.trim() === '*') return true;
    return match.split(',').some((t) => opaque(t) === opaque(body.etag));
  }
  const since = request.headers['if-modified-since'];
  if (since === undefined) return false;
  const t = Date.parse(since);
  return Number.isFinite(t) && t >= Date.parse(body.lastModified);
}

/**
 * Sends a pre-rendered, pre-compressed body with validators: 304 when the client's copy is
 * current, else the variant its Accept-Encoding prefers (routes opt out of @fastify/compress).
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  body: CachedBody,
  cacheControl: string,
): FastifyReply {
  reply
    .header('cache-control', cacheControl)
    .header('vary', 'Accept-Encoding')
    .header('etag', body.etag)
    .header('last-modified', body.lastModified);
  for (const [name, value] of Object.entries(body.headers)) reply.header(name, value);
  if (notModified(request, body)) return reply.code(304).send();
  const encoding = negotiate(request.headers['accept-encoding']);
  const bytes = encoding === 'identity' ? body.identity : body.encoded(encoding);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type(body.type).header('content-length', bytes.length).send(bytes);
}
