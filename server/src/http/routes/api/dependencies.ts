import {
  HeldMonitors,
  MonitorDependencies,
  MonitorIdParams,
  MonitorParentsInput,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import {
  heldMonitors,
  monitorDependencies,
  setMonitorParents,
} from '../../../services/dependencies/parents.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

/** Monitor dependencies (issue 18, ADR 41): parents hold their children's alerts. */
export function dependencyRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/monitors/held',
    operationId: 'heldMonitors',
    access: 'viewer',
    tag: 'monitors',
    summary: 'Monitors that are down while a parent of theirs is down (their alerts are held)',
    responses: { 200: HeldMonitors },
    handler: async () => heldMonitors(deps),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/monitors/:id/parents',
    operationId: 'monitorDependencies',
    errors: [404],
    access: 'viewer',
    tag: 'monitors',
    summary: "A monitor's parents and the monitors that depend on it",
    params: MonitorIdParams,
    responses: { 200: MonitorDependencies },
    handler: async ({ params }) => monitorDependencies(deps, params.id),
  });

  api.add(app, {
    method: 'PUT',
    url: '/api/v1/monitors/:id/parents',
    operationId: 'setMonitorParents',
    errors: [404],
    access: 'editor',
    tag: 'monitors',
    summary:
      "Replaces a monitor's parents (and its alert grouping when given); a dependency cycle is refused with the cycle named",
    params: MonitorIdParams,
    body: MonitorParentsInput,
    responses: { 200: MonitorDependencies },
    handler: async ({ params, body, ctx }) =>
      setMonitorParents(deps, ctx, params.id, body.parentIds, body.grouping),
  });
}
