import { Slo, SloIdParams, SloInput, SloList, SloListQuery } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import {
  createSlo,
  deleteSlo,
  getSlo,
  listSlos,
  updateSlo,
} from '../../../services/slos/manage.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'slos';
const base = '/api/v1/slos';

/** Service level objectives (ADR 52): everyone reads them, editors set them. */
export function sloRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: base,
    access: 'viewer',
    tag,
    summary: 'SLOs with attainment, error budget and burn rate now, by name',
    query: SloListQuery,
    responses: { 200: SloList },
    handler: async ({ query }) => listSlos(deps, query),
  });
  api.add(app, {
    method: 'GET',
    url: `${base}/:id`,
    access: 'viewer',
    tag,
    summary: 'One SLO with its figures and burn-rate rules',
    params: SloIdParams,
    responses: { 200: Slo },
    handler: async ({ params }) => getSlo(deps, params.id),
  });
  api.add(app, {
    method: 'POST',
    url: base,
    access: 'editor',
    tag,
    summary: 'Create an SLO on a monitor, a tag or a status page component',
    body: SloInput,
    responses: { 201: Slo },
    handler: async ({ body, ctx, reply }) => {
      const s = await createSlo(deps, ctx, body);
      void reply.code(201);
      return s;
    },
  });
  api.add(app, {
    method: 'PUT',
    url: `${base}/:id`,
    access: 'editor',
    tag,
    summary: 'Replace an SLO; an open burn-rate alert starts afresh',
    params: SloIdParams,
    body: SloInput,
    responses: { 200: Slo },
    handler: async ({ params, body, ctx }) => updateSlo(deps, ctx, params.id, body),
  });
  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id`,
    access: 'editor',
    tag,
    summary: 'Delete an SLO',
    params: SloIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx, reply }) => {
      await deleteSlo(deps, ctx, params.id);
      return reply.code(204).send();
    },
  });
}
