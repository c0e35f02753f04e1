import { MonitorBadges, MonitorIdParams } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { monitorBadges } from '../../../services/monitors/badges.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

/** What the badge builder needs: the public address and whether the badges exist at all. */
export function monitorBadgeRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps) {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/monitors/:id/badges',
    access: 'viewer',
    tag: 'monitors',
    summary: "Where the monitor's badges live: the public URL and the published pages showing it",
    params: MonitorIdParams,
    responses: { 200: MonitorBadges },
    handler: async ({ params }) => monitorBadges(deps, params.id),
  });
}
