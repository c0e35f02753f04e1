import {
  ReportDeliveryIdParams,
  ReportLinkCreated,
  ReportLinkInput,
  ReportLinkList,
  ReportSchedule,
  ReportScheduleInput,
  ReportScheduleList,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../../services/deps.js';
import { createLink, listLinks, revokeLink } from '../../../services/reports/links.js';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  updateSchedule,
} from '../../../services/reports/schedules.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'reports';
const schedules = '/api/v1/reports/schedules';
const links = '/api/v1/reports/links';

/** Monthly report emails and customer links (ADR 65). */
export function reportDeliveryRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): void {
  api.add(app, {
    method: 'GET',
    url: schedules,
    operationId: 'listReportSchedules',
    // Recipients' addresses are personal data: those who may change the schedules see them.
    access: 'editor',
    tag,
    summary: 'Monthly report emails, with how the latest month went out',
    responses: { 200: ReportScheduleList },
    handler: async () => ({ items: await listSchedules(deps) }),
  });

  api.add(app, {
    method: 'GET',
    url: `${schedules}/:id`,
    operationId: 'getReportSchedule',
    access: 'editor',
    tag,
    summary: 'One monthly report email',
    params: ReportDeliveryIdParams,
    responses: { 200: ReportSchedule },
    handler: async ({ params }) => getSchedule(deps, params.id),
  });

  api.add(app, {
    method: 'POST',
    url: schedules,
    operationId: 'createReportSchedule',
    access: 'editor',
    tag,
    summary: 'Email a report every month',
    description:
      'On day 1 of each month in `timeZone`, the previous calendar month’s report goes to the ' +
      'chosen users and addresses through the system mail channel, the PDF and/or CSV attached. ' +
      'The first email reports the month the schedule is made in.',
    body: ReportScheduleInput,
    responses: { 201: ReportSchedule },
    handler: async ({ body, ctx }) => createSchedule(deps, ctx, body),
  });

  api.add(app, {
    method: 'PUT',
    url: `${schedules}/:id`,
    operationId: 'updateReportSchedule',
    access: 'editor',
    tag,
    summary: 'Change a monthly report email (paused: `enabled: false`)',
    params: ReportDeliveryIdParams,
    body: ReportScheduleInput,
    responses: { 200: ReportSchedule },
    handler: async ({ params, body, ctx }) => updateSchedule(deps, ctx, params.id, body),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${schedules}/:id`,
    operationId: 'deleteReportSchedule',
    access: 'editor',
    tag,
    summary: 'Stop a monthly report email',
    params: ReportDeliveryIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => deleteSchedule(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'GET',
    url: links,
    operationId: 'listReportLinks',
    access: 'viewer',
    tag,
    summary: 'Customer links to reports (their addresses are shown only when made)',
    responses: { 200: ReportLinkList },
    handler: async () => ({ items: await listLinks(deps) }),
  });

  api.add(app, {
    method: 'POST',
    url: links,
    operationId: 'createReportLink',
    access: 'editor',
    tag,
    summary: 'Make a read-only link to a report for a customer',
    description:
      'Anyone with the returned `url` sees the report (page, PDF, CSV) without signing in, ' +
      'until it expires or is revoked. The token is shown only now: Pagewatch keeps its hash.',
    body: ReportLinkInput,
    responses: { 201: ReportLinkCreated },
    handler: async ({ body, ctx }) => createLink(deps, ctx, body),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${links}/:id`,
    operationId: 'revokeReportLink',
    access: 'editor',
    tag,
    summary: 'Revoke a report link: it opens nothing from now on',
    params: ReportDeliveryIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => revokeLink(deps, ctx, params.id),
  });
}
