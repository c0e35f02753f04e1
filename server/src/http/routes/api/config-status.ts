import { ConfigFileStatus } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { readStatus } from '../../../services/config-file/status.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

/** The server-side configuration mode's last outcome (PAGEWATCH_CONFIG, ADR 28): the banner. */
export function configStatusRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/config/status',
    // Errors quote file paths and lines of the server's configuration: admins only.
    access: 'admin',
    tag: 'config',
    summary: "How the server's configuration files (PAGEWATCH_CONFIG) were last applied",
    description:
      'When `ok` is false the files could not be applied and the configuration applied ' +
      'before keeps running; `errors` says where, as file, line and column.',
    responses: { 200: ConfigFileStatus },
    handler: async () => readStatus(deps.repos),
  });
}
