import {
  DeleteAllData,
  DeletedData,
  OwnershipTransfer,
  Settings,
  SettingsUpdate,
  StorageReport,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../../services/deps.js';
import { deleteAllData, transferOwnership } from '../../../services/settings/owner.js';
import { getSettings } from '../../../services/settings/read.js';
import { storageReport } from '../../../services/settings/storage.js';
import { updateSettings } from '../../../services/settings/update.js';
import type { ApiRegistry } from '../../route.js';
import { rdapBootstrapRoutes } from './rdap-bootstrap.js';

/** Settings → General and Data retention, and the owner's two actions (SPEC §2, §6). */
export function settingsRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/settings',
    operationId: 'getSettings',
    // Everyone signed in shows times in the instance's zone under its name.
    access: 'viewer',
    tag: 'settings',
    summary: 'The instance settings: general, data retention, and what the environment sets',
    responses: { 200: Settings },
    handler: async () => getSettings(deps),
  });

  api.add(app, {
    method: 'PUT',
    url: '/api/v1/settings',
    operationId: 'updateSettings',
    access: 'admin',
    tag: 'settings',
    summary: 'Replace the settings groups sent (each group whole); the others stay',
    description:
      'A new retention applies from the retention job’s next pass (every 10 minutes) in ' +
      'whichever process runs it; other processes read settings again within 5 seconds.',
    body: SettingsUpdate,
    responses: { 200: Settings },
    handler: async ({ body, ctx }) => updateSettings(deps, ctx, body),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/settings/storage',
    operationId: 'getStorageReport',
    access: 'admin',
    tag: 'settings',
    summary: 'Database size now, the check rate, and the size the retention leads to',
    responses: { 200: StorageReport },
    handler: async () => storageReport(deps),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/settings/transfer-ownership',
    operationId: 'transferOwnership',
    errors: [409, 429],
    access: 'owner',
    tag: 'settings',
    summary: 'Make an admin the owner; you become an admin (your password again)',
    body: OwnershipTransfer,
    responses: { 204: null },
    handler: async ({ body, ctx }) => transferOwnership(deps, ctx, body),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/settings/delete-all-data',
    operationId: 'deleteAllData',
    access: 'owner',
    tag: 'settings',
    summary: 'Delete every monitor, its history, incident, status page, channel and window',
    description:
      '`confirm` must be the instance name. People, sessions, API keys, settings and the ' +
      'audit log stay.',
    body: DeleteAllData,
    responses: { 200: DeletedData },
    handler: async ({ body, ctx }) => deleteAllData(deps, ctx, body),
  });

  rdapBootstrapRoutes(app, api, deps);
}
