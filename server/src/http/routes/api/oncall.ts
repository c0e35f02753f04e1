import {
  OnCallIdParams,
  OnCallNow,
  OnCallOverrideInput,
  OnCallOverrideParams,
  OnCallSchedule,
  OnCallScheduleInput,
  OnCallScheduleList,
  OnCallTimeline,
  OnCallTimelineQuery,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceDeps } from '../../../services/deps.js';
import {
  addOverride,
  createSchedule,
  deleteSchedule,
  getSchedule,
  myFeed,
  onCallNow,
  removeOverride,
  timeline,
  updateSchedule,
} from '../../../services/oncall/schedules.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'escalation';
const base = '/api/v1/oncall-schedules';

/** On-call schedules (ADR 39): everyone sees who is on call; admins change the rota. */
export function oncallRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: base,
    access: 'viewer',
    tag,
    summary: 'On-call schedules with their layers and overrides',
    responses: { 200: OnCallScheduleList },
    handler: async () => ({ items: await deps.repos.oncall.list() }),
  });
  api.add(app, {
    method: 'GET',
    url: `${base}/my-feed`,
    access: 'viewer',
    tag,
    summary: 'The secret iCalendar URL of your own shifts over every schedule',
    responses: { 200: z.object({ url: z.string() }) },
    handler: async ({ ctx }) => myFeed(deps, ctx),
  });
  api.add(app, {
    method: 'GET',
    url: `${base}/:id`,
    access: 'viewer',
    tag,
    summary: 'One on-call schedule',
    params: OnCallIdParams,
    responses: { 200: OnCallSchedule },
    handler: async ({ params }) => getSchedule(deps, params.id),
  });
  api.add(app, {
    method: 'GET',
    url: `${base}/:id/now`,
    access: 'viewer',
    tag,
    summary: 'Who is on call now and who is next, and the schedule’s calendar feed',
    params: OnCallIdParams,
    responses: { 200: OnCallNow },
    handler: async ({ params }) => onCallNow(deps, params.id),
  });
  api.add(app, {
    method: 'GET',
    url: `${base}/:id/timeline`,
    access: 'viewer',
    tag,
    summary: 'Who is on call over the next days: each layer, then the result with overrides',
    params: OnCallIdParams,
    query: OnCallTimelineQuery,
    responses: { 200: OnCallTimeline },
    handler: async ({ params, query }) => timeline(deps, params.id, query.days),
  });
  api.add(app, {
    method: 'POST',
    url: base,
    access: 'admin',
    tag,
    summary: 'Create an on-call schedule (its people must exist)',
    body: OnCallScheduleInput,
    responses: { 201: OnCallSchedule },
    handler: async ({ body, ctx, reply }) => {
      const s = await createSchedule(deps, ctx, body);
      void reply.code(201);
      return s;
    },
  });
  api.add(app, {
    method: 'PUT',
    url: `${base}/:id`,
    access: 'admin',
    tag,
    summary: 'Replace an on-call schedule’s name, zone and layers (overrides stay)',
    params: OnCallIdParams,
    body: OnCallScheduleInput,
    responses: { 200: OnCallSchedule },
    handler: async ({ params, body, ctx }) => updateSchedule(deps, ctx, params.id, body),
  });
  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id`,
    errors: [409],
    access: 'admin',
    tag,
    summary: 'Delete an on-call schedule and its overrides; refused while a policy pages it',
    params: OnCallIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx, reply }) => {
      await deleteSchedule(deps, ctx, params.id);
      return reply.code(204).send();
    },
  });
  api.add(app, {
    method: 'POST',
    url: `${base}/:id/overrides`,
    errors: [409],
    access: 'admin',
    tag,
    summary: 'Cover a stretch of the rota (a swap, a sick day); refused if it overlaps another',
    params: OnCallIdParams,
    body: OnCallOverrideInput,
    responses: { 201: OnCallSchedule },
    handler: async ({ params, body, ctx, reply }) => {
      const s = await addOverride(deps, ctx, params.id, body);
      void reply.code(201);
      return s;
    },
  });
  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id/overrides/:overrideId`,
    access: 'admin',
    tag,
    summary: 'Remove an override',
    params: OnCallOverrideParams,
    responses: { 200: OnCallSchedule },
    handler: async ({ params, ctx }) => removeOverride(deps, ctx, params.id, params.overrideId),
  });
}
