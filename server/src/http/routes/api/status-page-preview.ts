import { StatusPageInput } from '@pagewatch/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../lib/errors.js';
import { draftSource } from '../../../status-pages/draft.js';
import type { PageSource } from '../../../status-pages/load.js';
import type { StatusSite } from '../../../status-pages/site.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'status-pages';
const IdParams = z.strictObject({ id: z.coerce.number().int().positive() });

/** The editor's preview iframe (same origin) may frame it; nothing is cached. */
async function sendPreview(site: StatusSite, source: PageSource, reply: FastifyReply) {
  const out = await site.build(source, `/status/${source.page.slug}`, { kind: 'page' }, "'self'");
  if (!out) throw new AppError('not_found', 'Nothing to preview');
  for (const [name, value] of Object.entries(out.headers ?? {})) reply.header(name, value);
  return reply.header('cache-control', 'no-store').type(out.type).send(out.body);
}

/** Renders drafts and saved (maybe unpublished) pages exactly as the public will see them. */
export function statusPagePreviewRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  site: StatusSite,
): void {
  api.add(app, {
    method: 'POST',
    url: '/api/v1/status-pages/preview',
    access: 'editor',
    tag,
    summary: 'The public HTML of an unsaved page (the editor’s live preview)',
    body: StatusPageInput,
    responses: { 200: null },
    produces: 'text/html',
    handler: async ({ body, reply }) =>
      sendPreview(site, await draftSource(site.readDeps, body), reply),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/status-pages/:id/preview',
    // Reading a saved page is a viewer's right (SPEC §6); only drafts are an editor's tool.
    access: 'viewer',
    tag,
    summary: 'The public HTML of a saved page, published or not',
    params: IdParams,
    responses: { 200: null, 404: null },
    produces: 'text/html',
    handler: async ({ params, reply }) => {
      const source = await site.stored(params.id);
      if (!source) throw new AppError('not_found', 'No status page has this id');
      return sendPreview(site, source, reply);
    },
  });
}
