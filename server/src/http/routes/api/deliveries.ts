import { Delivery, DeliveryIdParams, DeliveryPage, DeliveryQuery } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { listDeliveries } from '../../../services/deliveries/list.js';
import { retryDelivery } from '../../../services/deliveries/retry.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'deliveries';
const base = '/api/v1/deliveries';

export function deliveryRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: base,
    // Editors may read one monitor's deliveries (its page); the whole log is admin+.
    access: 'editor',
    tag,
    summary: 'Alert deliveries, newest first; paged with `before`; editors must give `monitorId`',
    query: DeliveryQuery,
    responses: { 200: DeliveryPage },
    handler: async ({ query, ctx }) => listDeliveries(deps, ctx, query),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/:id/retry`,
    errors: [409],
    access: 'admin',
    tag,
    summary: 'Send a failed or retrying delivery again at once',
    params: DeliveryIdParams,
    responses: { 200: Delivery },
    handler: async ({ params, ctx }) => retryDelivery(deps, ctx, params.id),
  });
}
