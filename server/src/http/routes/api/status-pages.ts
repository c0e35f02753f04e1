import {
  logoTypes,
  StatusPage,
  StatusPageInput,
  StatusPageList,
  statusPageLimits,
  UnannouncedIncidents,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { validationFailed } from '../../../lib/errors.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { createStatusPage } from '../../../services/status-pages/create.js';
import {
  getStatusPage,
  getStatusPageLogo,
  listStatusPages,
} from '../../../services/status-pages/get.js';
import { removeStatusPage } from '../../../services/status-pages/remove.js';
import { removeLogo } from '../../../services/status-pages/remove-logo.js';
import { updateStatusPage } from '../../../services/status-pages/update.js';
import { uploadLogo } from '../../../services/status-pages/upload-logo.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'status-pages';
const base = '/api/v1/status-pages';
const IdParams = z.strictObject({ id: z.coerce.number().int().positive() });

export async function statusPageApiRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): Promise<void> {
  api.add(app, {
    method: 'GET',
    url: base,
    access: 'viewer',
    tag,
    summary: 'Status pages with their component and confirmed-subscriber counts',
    responses: { 200: StatusPageList },
    handler: async () => listStatusPages(deps),
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/unannounced`,
    access: 'viewer',
    tag,
    summary:
      'Open incidents on a published page’s components with no public update yet (visitors see “We’re looking into it.”)',
    responses: { 200: UnannouncedIncidents },
    handler: async () => ({ items: await deps.repos.statusPublic.unannounced() }),
  });

  api.add(app, {
    method: 'POST',
    url: base,
    errors: [409],
    access: 'editor',
    tag,
    summary: 'Create a status page with its sections and components',
    body: StatusPageInput,
    responses: { 201: StatusPage },
    handler: async ({ body, reply, ctx }) => {
      const page = await createStatusPage(deps, ctx, body);
      void reply.header('location', `${base}/${page.id}`);
      return page;
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id`,
    access: 'viewer',
    tag,
    summary: 'One status page as editors see it, with each component’s monitor name',
    params: IdParams,
    responses: { 200: StatusPage },
    handler: async ({ params }) => getStatusPage(deps, params.id),
  });

  api.add(app, {
    method: 'PUT',
    url: `${base}/:id`,
    errors: [409],
    access: 'editor',
    tag,
    summary: 'Replace a status page’s definition; sections and components keep the order sent',
    params: IdParams,
    body: StatusPageInput,
    responses: { 200: StatusPage },
    handler: async ({ params, body, ctx }) => updateStatusPage(deps, ctx, params.id, body),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id`,
    access: 'editor',
    tag,
    summary: 'Delete a status page with its logo and subscribers',
    params: IdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removeStatusPage(deps, ctx, params.id),
  });

  await app.register(async (scoped) => logoRoutes(scoped, api, deps));
}

/** Logo routes take raw image bytes: their own parser and body limit, kept to this scope. */
function logoRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  api.add(app, {
    method: 'PUT',
    url: `${base}/:id/logo`,
    operationId: 'uploadStatusPageLogo',
    access: 'editor',
    tag,
    summary: 'Upload the page’s logo: PNG, JPEG, WebP or GIF bytes up to 256 KiB (no SVG)',
    params: IdParams,
    consumes: logoTypes,
    bodyLimit: statusPageLimits.logoBytesMax,
    responses: { 200: StatusPage },
    handler: async ({ params, request, ctx }) => {
      if (!Buffer.isBuffer(request.body)) {
        const message = `Send the image bytes with Content-Type ${logoTypes.join(', ')}`;
        throw validationFailed([{ path: 'logo', message, code: 'invalid_type' }], message);
      }
      await uploadLogo(deps, ctx, params.id, request.body, request.headers['content-type']);
      return getStatusPage(deps, params.id);
    },
  });

  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id/logo`,
    access: 'editor',
    tag,
    summary: 'Remove the page’s logo',
    params: IdParams,
    responses: { 200: StatusPage },
    handler: async ({ params, ctx }) => {
      await removeLogo(deps, ctx, params.id);
      return getStatusPage(deps, params.id);
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id/logo`,
    access: 'viewer',
    tag,
    summary: 'The page’s logo as uploaded (for the editor)',
    params: IdParams,
    produces: 'image/*',
    responses: { 200: null },
    handler: async ({ params, reply }) => {
      const logo = await getStatusPageLogo(deps, params.id);
      return reply
        .type(logo.type)
        .header('cache-control', 'private, max-age=86400')
        .header('content-length', logo.bytes.length)
        .send(logo.bytes);
    },
  });
}
