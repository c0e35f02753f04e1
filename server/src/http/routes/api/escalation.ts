import {
  Escalation,
  EscalationIdParams,
  EscalationList,
  EscalationPolicy,
  EscalationPolicyIdParams,
  EscalationPolicyInput,
  EscalationPolicyList,
  EscalationQuery,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { acknowledgeEscalation } from '../../../services/escalation/acknowledge.js';
import {
  createPolicy,
  deletePolicy,
  getPolicy,
  listPolicies,
  updatePolicy,
} from '../../../services/escalation/policies.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'escalation';
const policies = '/api/v1/escalation-policies';
const escalations = '/api/v1/escalations';

/** Escalation policies (admin+, like channels) and acknowledging outages (editor+). ADR 39. */
export function escalationRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: policies,
    access: 'viewer',
    tag,
    summary: 'Escalation policies, by name',
    responses: { 200: EscalationPolicyList },
    handler: async () => listPolicies(deps),
  });
  api.add(app, {
    method: 'GET',
    url: `${policies}/:id`,
    access: 'viewer',
    tag,
    summary: 'One escalation policy',
    params: EscalationPolicyIdParams,
    responses: { 200: EscalationPolicy },
    handler: async ({ params }) => getPolicy(deps, params.id),
  });
  api.add(app, {
    method: 'POST',
    url: policies,
    access: 'admin',
    tag,
    summary: 'Create an escalation policy (its channels must exist)',
    body: EscalationPolicyInput,
    responses: { 201: EscalationPolicy },
    handler: async ({ body, ctx, reply }) => {
      const p = await createPolicy(deps, ctx, body);
      void reply.code(201);
      return p;
    },
  });
  api.add(app, {
    method: 'PUT',
    url: `${policies}/:id`,
    access: 'admin',
    tag,
    summary: 'Replace an escalation policy; running escalations follow it from their next step',
    params: EscalationPolicyIdParams,
    body: EscalationPolicyInput,
    responses: { 200: EscalationPolicy },
    handler: async ({ params, body, ctx }) => updatePolicy(deps, ctx, params.id, body),
  });
  api.add(app, {
    method: 'DELETE',
    url: `${policies}/:id`,
    errors: [409],
    access: 'admin',
    tag,
    summary: 'Delete an escalation policy no monitor uses',
    params: EscalationPolicyIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx, reply }) => {
      await deletePolicy(deps, ctx, params.id);
      return reply.code(204).send();
    },
  });
  api.add(app, {
    method: 'GET',
    url: escalations,
    access: 'viewer',
    tag,
    summary: 'Escalations of outages, newest first (100); filter by monitor or running ones',
    query: EscalationQuery,
    responses: { 200: EscalationList },
    handler: async ({ query }) => ({
      items: await deps.repos.escalations.list({
        ...(query.monitorId !== undefined ? { monitorId: query.monitorId } : {}),
        ...(query.open !== undefined ? { open: query.open } : {}),
      }),
    }),
  });
  api.add(app, {
    method: 'POST',
    url: `${escalations}/:id/acknowledge`,
    errors: [409],
    access: 'editor',
    tag,
    summary: 'Acknowledge an outage: its escalation stops and the incident timeline says who',
    params: EscalationIdParams,
    responses: { 200: Escalation },
    // A session is the web app; an API key is the API.
    handler: async ({ params, ctx }) =>
      acknowledgeEscalation(deps, ctx, params.id, ctx.actor.type === 'user' ? 'ui' : 'api'),
  });
}
