import {
  BrowserRunList,
  BrowserRunsQuery,
  CheckListQuery,
  CheckScreenshotParams,
  CheckPage,
  Monitor,
  MonitorBulkInput,
  MonitorBulkResult,
  MonitorIdParams,
  MonitorInput,
  MonitorList,
  MonitorNames,
  MonitorRowPage,
  MonitorRowsQuery,
  MonitorStats,
  StatsQuery,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { checkScreenshot, listBrowserRuns } from '../../../services/checks/browser-runs.js';
import { listChecks } from '../../../services/checks/list.js';
import { monitorStats } from '../../../services/checks/stats.js';
import { checkMonitorNow } from '../../../services/monitors/check-now.js';
import { bulkMonitors } from '../../../services/monitors/bulk.js';
import { createMonitor } from '../../../services/monitors/create.js';
import { getMonitor, monitorChannelIds } from '../../../services/monitors/get.js';
import { listMonitors } from '../../../services/monitors/list.js';
import { monitorNamesJson, monitorRowsJson } from '../../../services/monitors/rows.js';
import { setMonitorPaused } from '../../../services/monitors/pause.js';
import { removeMonitor } from '../../../services/monitors/remove.js';
import { updateMonitor } from '../../../services/monitors/update.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { rotatePushToken } from '../../../services/push/token.js';
import type { RequestContext } from '../../../domain/actor.js';
import type { MonitorRecord } from '../../../domain/monitor.js';
import { maintenanceNow } from '../../../services/maintenance/now.js';
import {
  countByStatus,
  monitorView,
  presentMonitor,
  presentSummary,
} from '../../presenters/monitors.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'monitors';
const base = '/api/v1/monitors';

export function monitorRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  const view = (ctx: RequestContext) => monitorView(ctx, deps.publicUrl, deps.clock.now());
  // A monitor in an active maintenance window shows `maintenance` (SPEC §4).
  const present = async (m: MonitorRecord, ctx: RequestContext) =>
    presentMonitor(
      m,
      view(ctx),
      (await maintenanceNow(deps))(m.id),
      await monitorChannelIds(deps, m.id),
    );

  api.add(app, {
    method: 'GET',
    url: base,
    access: 'viewer',
    tag,
    summary: 'List every monitor with its status, 24 h uptime and recent latencies',
    responses: { 200: MonitorList },
    handler: async ({ reply }) => {
      if (deps.summaries) {
        void reply.type('application/json; charset=utf-8');
        return deps.summaries.listJson();
      }
      const items = (await listMonitors(deps)).map((r) =>
        presentSummary(r.monitor, r.uptime24h, r.maintenance),
      );
      return { items, counts: countByStatus(items) };
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/rows`,
    operationId: 'listMonitorRows',
    access: 'viewer',
    tag,
    summary:
      'One page of the dashboard list: compact rows filtered and ordered by the server, with counts for the filters',
    query: MonitorRowsQuery,
    responses: { 200: MonitorRowPage },
    handler: async ({ query, reply }) => {
      void reply.type('application/json; charset=utf-8');
      return monitorRowsJson(deps, query);
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/names`,
    operationId: 'listMonitorNames',
    access: 'viewer',
    tag,
    summary: "Every monitor's id, name and target, by name: what a monitor picker needs",
    responses: { 200: MonitorNames },
    handler: async ({ reply }) => {
      void reply.type('application/json; charset=utf-8');
      return monitorNamesJson(deps);
    },
  });

  api.add(app, {
    method: 'POST',
    url: base,
    access: 'editor',
    tag,
    summary: 'Create a monitor; it is checked right away',
    body: MonitorInput,
    responses: { 201: Monitor },
    handler: async ({ body, reply, ctx }) => {
      const monitor = await createMonitor(deps, ctx, body);
      void reply.header('location', `${base}/${monitor.id}`);
      return present(monitor, ctx);
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/bulk`,
    operationId: 'bulkMonitors',
    access: 'editor',
    tag,
    summary:
      'Pause, resume, delete, tag, untag, set channels or interval of, or put in maintenance many monitors: ticked ids or all matching a filter; says which were gone or managed by configuration files',
    body: MonitorBulkInput,
    responses: { 200: MonitorBulkResult },
    handler: async ({ body, ctx }) => bulkMonitors(deps, ctx, body),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/:id/clone`,
    operationId: 'cloneMonitor',
    access: 'editor',
    tag,
    summary:
      "Create a monitor from a copy's definition; secrets it leaves out are copied from monitor :id on the server",
    params: MonitorIdParams,
    body: MonitorInput,
    responses: { 201: Monitor },
    handler: async ({ params, body, reply, ctx }) => {
      const monitor = await createMonitor(deps, ctx, body, await getMonitor(deps, params.id));
      void reply.header('location', `${base}/${monitor.id}`);
      return present(monitor, ctx);
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id`,
    access: 'viewer',
    tag,
    summary: 'One monitor with its definition and current status',
    params: MonitorIdParams,
    responses: { 200: Monitor },
    handler: async ({ params, ctx }) => present(await getMonitor(deps, params.id), ctx),
  });

  api.add(app, {
    method: 'PUT',
    url: `${base}/:id`,
    access: 'editor',
    tag,
    summary: "Replace a monitor's definition",
    params: MonitorIdParams,
    body: MonitorInput,
    responses: { 200: Monitor },
    handler: async ({ params, body, ctx }) =>
      present(await updateMonitor(deps, ctx, params.id, body), ctx),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id`,
    access: 'editor',
    tag,
    summary: 'Delete a monitor and its history',
    params: MonitorIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removeMonitor(deps, ctx, params.id),
  });

  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    api.add(app, {
      method: 'POST',
      url: `${base}/:id/${verb}`,
      access: 'editor',
      tag,
      summary: paused ? 'Stop checking a monitor' : 'Start checking a paused monitor again',
      params: MonitorIdParams,
      responses: { 200: Monitor },
      handler: async ({ params, ctx }) =>
        present(await setMonitorPaused(deps, ctx, params.id, paused), ctx),
    });
  }

  api.add(app, {
    method: 'POST',
    url: `${base}/:id/push-token`,
    operationId: 'rotatePushToken',
    errors: [409],
    access: 'editor',
    tag,
    summary: "Replace a push monitor's token; the old push URL stops working at once",
    params: MonitorIdParams,
    responses: { 200: Monitor },
    handler: async ({ params, ctx }) => present(await rotatePushToken(deps, ctx, params.id), ctx),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/:id/check-now`,
    operationId: 'checkMonitorNow',
    errors: [409],
    access: 'editor',
    tag,
    summary: 'Run a check right away; its result arrives on the event stream',
    params: MonitorIdParams,
    responses: { 202: z.object({ queued: z.literal(true) }) },
    handler: async ({ params }) => {
      await checkMonitorNow(deps, params.id);
      return { queued: true };
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id/checks`,
    access: 'viewer',
    tag,
    summary: 'Check results, newest first, paged with `before`',
    params: MonitorIdParams,
    query: CheckListQuery,
    responses: { 200: CheckPage },
    handler: async ({ params, query }) => listChecks(deps, params.id, query.limit, query.before),
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id/browser-runs`,
    access: 'viewer',
    tag,
    summary:
      'A browser monitor’s latest page measurements (Web Vitals, waterfall, errors), newest first',
    params: MonitorIdParams,
    query: BrowserRunsQuery,
    responses: { 200: BrowserRunList },
    handler: async ({ params, query }) => listBrowserRuns(deps, params.id, query.limit),
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id/checks/:checkId/screenshot`,
    access: 'viewer',
    tag,
    summary: 'The JPEG screenshot kept with a browser check (failures and the latest success)',
    params: CheckScreenshotParams,
    produces: 'image/jpeg',
    responses: { 200: null },
    handler: async ({ params, reply }) => {
      const jpeg = await checkScreenshot(deps, params.id, params.checkId);
      // Screenshots show what signed-in people may see: never a shared cache.
      return reply
        .type('image/jpeg')
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('content-length', jpeg.length)
        .send(jpeg);
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id/stats`,
    operationId: 'getMonitorStats',
    access: 'viewer',
    tag,
    summary: 'Uptime, latency percentiles and a phase-by-phase series over a window',
    params: MonitorIdParams,
    query: StatsQuery,
    responses: { 200: MonitorStats },
    handler: async ({ params, query }) => monitorStats(deps, params.id, query.window),
  });
}
