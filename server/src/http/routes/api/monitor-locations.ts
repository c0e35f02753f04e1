import {
  LocationChoices,
  LocationLatency,
  LocationLatencyQuery,
  MonitorIdParams,
  MonitorLocations,
  MonitorLocationsInput,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import {
  locationChoices,
  locationLatency,
  monitorLocations,
} from '../../../services/monitor-locations/get.js';
import { setMonitorLocations } from '../../../services/monitor-locations/set.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

/** Where a monitor is checked, its quorum and each location's figures (issue 16, ADR 58). */
export function monitorLocationRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/monitors/location-choices',
    operationId: 'monitorLocationChoices',
    access: 'viewer',
    tag: 'monitors',
    summary: 'The locations a monitor may be checked from',
    responses: { 200: LocationChoices },
    handler: async () => locationChoices(deps),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/monitors/:id/locations',
    operationId: 'monitorLocations',
    errors: [404],
    access: 'viewer',
    tag: 'monitors',
    summary:
      "A monitor's locations with each one's live verdict, latency and 24 h uptime, its quorum and the locations failing now",
    params: MonitorIdParams,
    responses: { 200: MonitorLocations },
    handler: async ({ params }) => monitorLocations(deps, params.id),
  });

  api.add(app, {
    method: 'PUT',
    url: '/api/v1/monitors/:id/locations',
    operationId: 'setMonitorLocations',
    errors: [404],
    access: 'editor',
    tag: 'monitors',
    summary:
      'Chooses where a monitor is checked and k of "down when k of its locations fail" (null: a majority of those that reported)',
    params: MonitorIdParams,
    body: MonitorLocationsInput,
    responses: { 200: MonitorLocations },
    handler: async ({ params, body, ctx }) => setMonitorLocations(deps, ctx, params.id, body),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/monitors/:id/locations/latency',
    operationId: 'monitorLocationLatency',
    errors: [404],
    access: 'viewer',
    tag: 'monitors',
    summary: "A monitor's latency split by location over the last hours (1–48, default 6)",
    params: MonitorIdParams,
    query: LocationLatencyQuery,
    responses: { 200: LocationLatency },
    handler: async ({ params, query }) => locationLatency(deps, params.id, query.hours),
  });
}
