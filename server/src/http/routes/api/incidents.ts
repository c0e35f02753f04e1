import {
  IncidentBulkResolve,
  IncidentBulkResult,
  IncidentCreate,
  IncidentDetail,
  IncidentEdit,
  IncidentIdParams,
  IncidentListQuery,
  IncidentPage,
  IncidentUpdateInput,
  IncidentUpdateList,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { resolveIncidents } from '../../../services/incidents/bulk-resolve.js';
import { declareIncident } from '../../../services/incidents/create.js';
import { editIncident } from '../../../services/incidents/edit.js';
import { getIncident, listIncidentUpdates } from '../../../services/incidents/get.js';
import { listIncidents } from '../../../services/incidents/list.js';
import { postIncidentUpdate } from '../../../services/incidents/post-update.js';
import { removeIncident } from '../../../services/incidents/remove.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'incidents';
const base = '/api/v1/incidents';

export function incidentRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: base,
    access: 'viewer',
    tag,
    summary: 'Incidents, open ones first, then by start (newest first); paged with `cursor`',
    query: IncidentListQuery,
    responses: { 200: IncidentPage },
    handler: async ({ query }) => listIncidents(deps, query),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/bulk-resolve`,
    operationId: 'resolveIncidents',
    access: 'editor',
    tag,
    summary:
      'Resolve many incidents with one closing update each; says which were already resolved or gone',
    body: IncidentBulkResolve,
    responses: { 200: IncidentBulkResult },
    handler: async ({ body, ctx }) => resolveIncidents(deps, ctx, body),
  });

  api.add(app, {
    method: 'POST',
    url: base,
    access: 'editor',
    tag,
    summary: 'Declare an incident by hand, with its first update',
    body: IncidentCreate,
    responses: { 201: IncidentDetail },
    handler: async ({ body, reply, ctx }) => {
      const incident = await declareIncident(deps, ctx, body);
      void reply.header('location', `${base}/${incident.id}`);
      return incident;
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id`,
    access: 'viewer',
    tag,
    summary: 'One incident with its timeline, newest update first',
    params: IncidentIdParams,
    responses: { 200: IncidentDetail },
    handler: async ({ params }) => getIncident(deps, params.id),
  });

  api.add(app, {
    method: 'PATCH',
    url: `${base}/:id`,
    access: 'editor',
    tag,
    summary: "Change an incident's title, severity or affected monitors",
    params: IncidentIdParams,
    body: IncidentEdit,
    responses: { 200: IncidentDetail },
    handler: async ({ params, body, ctx }) => editIncident(deps, ctx, params.id, body),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id`,
    access: 'editor',
    tag,
    summary: 'Delete an incident and its timeline',
    params: IncidentIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removeIncident(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id/updates`,
    access: 'viewer',
    tag,
    summary: "An incident's updates, newest first",
    params: IncidentIdParams,
    responses: { 200: IncidentUpdateList },
    handler: async ({ params }) => ({ items: await listIncidentUpdates(deps, params.id) }),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/:id/updates`,
    access: 'editor',
    tag,
    summary: 'Post an update; its state moves the incident (resolved closes it, others reopen it)',
    params: IncidentIdParams,
    body: IncidentUpdateInput,
    responses: { 201: IncidentDetail },
    handler: async ({ params, body, ctx }) => postIncidentUpdate(deps, ctx, params.id, body),
  });
}
