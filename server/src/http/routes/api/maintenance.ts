import {
  MaintenanceIdParams,
  MaintenanceInput,
  MaintenanceList,
  MaintenanceListQuery,
  MaintenancePreview,
  MaintenancePreviewInput,
  MaintenanceWindow,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import {
  cancelWindow,
  createWindow,
  removeWindow,
  updateWindow,
} from '../../../services/maintenance/manage.js';
import { getWindow, listWindows, previewWindow } from '../../../services/maintenance/read.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'maintenance';
const base = '/api/v1/maintenance';

export function maintenanceRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: base,
    operationId: 'listMaintenanceWindows',
    access: 'viewer',
    tag,
    summary: 'List maintenance windows (active first), optionally of one state',
    query: MaintenanceListQuery,
    responses: { 200: MaintenanceList },
    handler: async ({ query }) => ({ items: await listWindows(deps, query.state) }),
  });

  api.add(app, {
    method: 'POST',
    url: base,
    operationId: 'createMaintenanceWindow',
    access: 'editor',
    tag,
    summary: 'Create a one-off or recurring maintenance window',
    body: MaintenanceInput,
    responses: { 201: MaintenanceWindow },
    handler: async ({ body, reply, ctx }) => {
      const w = await createWindow(deps, ctx, body);
      void reply.header('location', `${base}/${w.id}`);
      return w;
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/preview`,
    operationId: 'previewMaintenanceSchedule',
    access: 'editor',
    tag,
    summary: 'The next occurrences of an unsaved schedule, for the form',
    body: MaintenancePreviewInput,
    responses: { 200: MaintenancePreview },
    handler: async ({ body }) => previewWindow(deps, body),
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id`,
    operationId: 'getMaintenanceWindow',
    access: 'viewer',
    tag,
    summary: 'One maintenance window with its state and next occurrences',
    params: MaintenanceIdParams,
    responses: { 200: MaintenanceWindow },
    handler: async ({ params }) => getWindow(deps, params.id),
  });

  api.add(app, {
    method: 'PUT',
    url: `${base}/:id`,
    operationId: 'updateMaintenanceWindow',
    errors: [409],
    access: 'editor',
    tag,
    summary: "Replace a maintenance window's definition",
    params: MaintenanceIdParams,
    body: MaintenanceInput,
    responses: { 200: MaintenanceWindow },
    handler: async ({ params, body, ctx }) => updateWindow(deps, ctx, params.id, body),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/:id/cancel`,
    operationId: 'cancelMaintenanceWindow',
    errors: [409],
    access: 'editor',
    tag,
    summary: 'Cancel a window: a running occurrence ends now and none follow',
    params: MaintenanceIdParams,
    responses: { 200: MaintenanceWindow },
    handler: async ({ params, ctx }) => cancelWindow(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id`,
    operationId: 'deleteMaintenanceWindow',
    access: 'editor',
    tag,
    summary: 'Delete a maintenance window',
    params: MaintenanceIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removeWindow(deps, ctx, params.id),
  });
}
