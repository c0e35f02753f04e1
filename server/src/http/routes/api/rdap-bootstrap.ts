import { RdapBootstrapRefresh, RdapBootstrapStatus } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../../services/deps.js';
import {
  rdapBootstrapStatus,
  refreshRdapBootstrap,
} from '../../../services/domain-expiry/rdap-bootstrap.js';
import type { ApiRegistry } from '../../route.js';

/** Settings → General → Domain expiry: the RDAP bootstrap file and its refresh (ADR 64). */
export function rdapBootstrapRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/settings/rdap-bootstrap',
    operationId: 'getRdapBootstrap',
    access: 'admin',
    tag: 'settings',
    summary:
      'The RDAP bootstrap file domain expiry uses: shipped or refreshed, its date and source',
    responses: { 200: RdapBootstrapStatus },
    handler: () => Promise.resolve(rdapBootstrapStatus(deps)),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/settings/rdap-bootstrap/refresh',
    operationId: 'refreshRdapBootstrap',
    errors: [409, 503],
    access: 'admin',
    tag: 'settings',
    summary: "Download IANA's RDAP bootstrap file (or the copy at `from`) into the data directory",
    description:
      'The file is checked before it replaces the one in use; every process reads it again ' +
      'within 5 minutes. Nothing changes when the download or the check fails.',
    body: RdapBootstrapRefresh,
    responses: { 200: RdapBootstrapStatus },
    handler: async ({ body, ctx }) => refreshRdapBootstrap(deps, ctx, body),
  });
}
