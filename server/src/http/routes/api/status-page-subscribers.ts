import { SubscriberList } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceDeps } from '../../../services/deps.js';
import { listSubscribers, removeSubscriber } from '../../../services/subscribers/manage.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'status-pages';
const PageParams = z.strictObject({ id: z.coerce.number().int().positive() });
const SubscriberParams = PageParams.extend({ subscriberId: z.coerce.number().int().positive() });

/** Who follows a status page; addresses are personal data, so editors and up only. */
export function statusPageSubscriberRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/status-pages/:id/subscribers',
    access: 'editor',
    tag,
    summary: "A status page's subscribers (email and webhook), newest first",
    params: PageParams,
    responses: { 200: SubscriberList },
    handler: async ({ params }) => ({ items: await listSubscribers(deps, params.id) }),
  });

  api.add(app, {
    method: 'DELETE',
    url: '/api/v1/status-pages/:id/subscribers/:subscriberId',
    access: 'editor',
    tag,
    summary: 'Remove a subscriber (no further notices; they may subscribe again)',
    params: SubscriberParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removeSubscriber(deps, ctx, params.id, params.subscriberId),
  });
}
