import { ClusterOverview } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { clusterOverview } from '../../../services/cluster/overview.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

/** Settings → Cluster: the deployment's processes and their leases (ADR 21), read-only. */
export function clusterRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/cluster',
    operationId: 'getClusterOverview',
    // Host names, pids and versions describe the deployment: for the people who run it.
    access: 'admin',
    tag: 'cluster',
    summary: 'Live members of the deployment with the partition and singleton leases they hold',
    description:
      'Read on the database’s clock. A member is live while its heartbeat is younger than the ' +
      'lease expiry (8 s by default); a lease counts while its expiry is ahead of `databaseNow`.',
    responses: { 200: ClusterOverview },
    handler: async () => clusterOverview(deps),
  });
}
