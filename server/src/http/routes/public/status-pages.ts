import { Slug } from '@pagewatch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENHANCE_JS } from '../../../status-pages/enhance.js';
import { renderNotFound } from '../../../status-pages/render/index.js';
import {
  pageCsp,
  type PageRef,
  type PublicRoute,
  type StatusSite,
} from '../../../status-pages/site.js';
import { shareCrossOrigin } from '../../cross-origin.js';
import { sendCached } from '../../presenters/cached-body.js';

export const PAGE_CACHE = 'public, max-age=30, stale-while-revalidate=60';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A route under a page's address: `` (the page), `/history`, `/incidents/12`, `/feed.atom`… */
type Sub = PublicRoute | { kind: 'logo' };

function subRoute(rest: string, origin: string): Sub | null {
  if (rest === '' || rest === '/') return { kind: 'page' };
  if (rest === '/history') return { kind: 'history' };
  if (rest === '/index.json') return { kind: 'json' };
  if (rest === '/feed.atom') return { kind: 'atom', origin };
  if (rest === '/feed.rss') return { kind: 'rss', origin };
  if (rest === '/logo') return { kind: 'logo' };
  const incident = /^\/incidents\/([1-9]\d{0,15})$/.exec(rest);
  return incident ? { kind: 'incident', id: Number(incident[1]) } : null;
}

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

function notFound(reply: FastifyReply): FastifyReply {
  const { html, styleSrc } = renderNotFound();
  return reply
    .code(404)
    .header('cache-control', 'no-cache')
    .header('content-security-policy', pageCsp(styleSrc))
    .type('text/html; charset=utf-8')
    .send(html);
}

async function serveLogo(
  site: StatusSite,
  ref: PageRef,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const source = await site.published(ref);
  const logo = source && (await site.logo(source.page.id));
  if (!logo) return notFound(reply);
  const v = (request.query as Record<string, unknown> | undefined)?.v;
  return reply
    .header('cache-control', v === logo.hash ? IMMUTABLE : 'public, max-age=300')
    .header('etag', `"${logo.hash}"`)
    .header('x-content-type-options', 'nosniff')
    .type(logo.type)
    .send(logo.bytes);
}

async function serve(
  site: StatusSite,
  ref: PageRef,
  sub: Sub | null,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (!sub) return notFound(reply);
  if (sub.kind === 'logo') return serveLogo(site, ref, request, reply);
  const found = await site.respond(ref, sub);
  if (!found) return notFound(reply);
  // Widgets on other sites read the JSON and the feeds; they hold only what the page shows.
  if (sub.kind === 'json' || sub.kind === 'atom' || sub.kind === 'rss')
    shareCrossOrigin(reply, { cors: true });
  if (found.timing) void reply.header('server-timing', found.timing);
  return sendCached(request, reply, found.body, PAGE_CACHE);
}

/**
 * Public status pages (SPEC §2): `/status/:slug[/…]` on the app's host and the same routes at
 * `/` on a page's custom domain. Unknown and unpublished pages get the same 404 page.
 */
export function statusPageRoutes(app: FastifyInstance, site: StatusSite): void {
  // Before the auth hook: on a page's own domain, its paths are the page, whatever the router says.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const pageId = await site.pageOnDomain(request.hostname);
    if (pageId === null) return;
    const path = request.url.split('?')[0] ?? '/';
    const sub = subRoute(path === '/' ? '' : path, originOf(request));
    if (!sub) return;
    await serve(site, { domainPageId: pageId }, sub, request, reply);
    return reply;
  });

  const handler = async (
    request: FastifyRequest<{ Params: { slug: string; '*'?: string } }>,
    reply: FastifyReply,
  ) => {
    const slug = Slug.safeParse(request.params.slug);
    if (!slug.success || slug.data !== request.params.slug) return notFound(reply);
    const rest = request.url.split('?')[0]?.slice(`/status/${slug.data}`.length) ?? '';
    return serve(site, { slug: slug.data }, subRoute(rest, originOf(request)), request, reply);
  };
  for (const url of ['/status/:slug', '/status/:slug/*']) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      config: { access: 'public' },
      compress: false,
      logLevel: 'warn',
      handler,
    });
  }

  app.route({
    method: ['GET', 'HEAD'],
    url: '/status/assets/enhance.js',
    config: { access: 'public' },
    logLevel: 'warn',
    handler: async (_request, reply) =>
      reply
        .header('cache-control', IMMUTABLE)
        .type('text/javascript; charset=utf-8')
        .send(ENHANCE_JS),
  });
}
