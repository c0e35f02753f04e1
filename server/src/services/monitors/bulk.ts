import {
  maintenanceLimits,
  monitorsEventMax,
  type AuditAction,
  type MonitorBulkAction,
  type MonitorBulkInput,
  type MonitorBulkResult,
  type MonitorSelection,
} from '@pagewatch/contract';
import type { AuditWrite } from '../../db/repositories/audit.js';
import type { BulkWrites } from '../../db/repositories/monitor-bulk.js';
import type { RequestContext } from '../../domain/actor.js';
import { bulkVerb, planBulk, retag, type BulkPlan } from '../../domain/monitor-bulk.js';
import { AppError, validationFailed } from '../../lib/errors.js';
import { actorOf } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { createWindow } from '../maintenance/manage.js';
import { channelsToLink } from './channels.js';
import { removeMonitor } from './remove.js';
import { monitorIdsMatching } from './rows.js';

/** The ids a selection names now: ticked ones as given, a filter's from the dashboard's list. */
async function resolveSelection(deps: ServiceDeps, s: MonitorSelection): Promise<number[]> {
  if (s.kind === 'ids') return [...new Set(s.ids)];
  return monitorIdsMatching(deps, { status: s.status, tag: s.tag, type: s.type, q: s.q });
}

const auditAction: Record<MonitorBulkAction['kind'], AuditAction> = {
  pause: 'monitor.paused',
  resume: 'monitor.resumed',
  delete: 'monitor.deleted',
  tag: 'monitor.updated',
  untag: 'monitor.updated',
  channels: 'monitor.updated',
  interval: 'monitor.updated',
  maintenance: 'maintenance.created',
};

function detail(action: MonitorBulkAction): string {
  if (action.kind === 'tag' || action.kind === 'untag') return `: ${action.tags.join(', ')}`;
  if (action.kind === 'interval') return `: every ${action.interval} s`;
  if (action.kind === 'channels') return `: channels ${action.channelIds.join(', ') || 'none'}`;
  return '';
}

/** The changes of one transaction: the monitors changed, those gone since they were read. */
async function write(
  w: BulkWrites,
  plan: BulkPlan,
  action: MonitorBulkAction,
  now: number,
): Promise<number[]> {
  const ids = plan.targets.map((t) => t.id);
  if (action.kind === 'pause' || action.kind === 'resume') {
    return w.set(ids, { paused: action.kind === 'pause' ? 1 : 0 }, now);
  }
  if (action.kind === 'interval') return w.set(ids, { interval_s: action.interval }, now);
  if (action.kind === 'channels') return w.setChannels(ids, action.channelIds, now);
  if (action.kind === 'tag' || action.kind === 'untag') {
    return w.setTags(new Map(plan.targets.map((t) => [t.id, retag(t.tags, action)])), now);
  }
  throw new Error(`Not a transactional bulk action: ${action.kind}`);
}

/**
 * Runs one action on many monitors. Pause, resume, tags, channels and interval read and write
 * in one transaction with their audit lines; delete goes monitor by monitor (a monitor's
 * history is removed in batches, ADR 35); maintenance creates one window for the monitors left.
 */
export async function bulkMonitors(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: MonitorBulkInput,
): Promise<MonitorBulkResult> {
  const { action } = input;
  const asked = await resolveSelection(deps, input.selection);
  if (action.kind === 'channels') await channelsToLink(deps, action.channelIds, false);
  const now = deps.clock.now();
  const result: MonitorBulkResult = {
    action: action.kind,
    selected: asked.length,
    done: [],
    notFound: [],
    managed: [],
    refused: [],
    maintenanceId: null,
  };
  const finish = (plan: BulkPlan, done: number[]) => {
    const kept = new Set(done);
    const lost = plan.targets.filter((t) => !kept.has(t.id)).map((t) => t.id);
    result.done = [...done].sort((a, b) => a - b);
    result.notFound = [...plan.notFound, ...lost].sort((a, b) => a - b);
    result.managed = plan.managed;
    result.refused = plan.refused;
    return result;
  };

  if (action.kind === 'delete' || action.kind === 'maintenance') {
    const plan = await deps.repos.monitorBulk.transaction(async (w) =>
      planBulk(asked, await w.rows(asked), action),
    );
    if (action.kind === 'maintenance') return maintenance(deps, ctx, action, plan, finish, result);
    const done: number[] = [];
    for (const t of plan.targets) {
      try {
        await removeMonitor(deps, ctx, t.id);
        done.push(t.id);
      } catch (err) {
        if (!(err instanceof AppError) || err.type !== 'not_found') throw err;
      }
    }
    return finish(plan, done);
  }

  const actor = actorOf(ctx);
  const { plan, done } = await deps.repos.monitorBulk.transaction(async (w) => {
    const plan = planBulk(asked, await w.rows(asked), action);
    const done = await write(w, plan, action, now);
    const names = new Map(plan.targets.map((t) => [t.id, t.name]));
    const lines: AuditWrite[] = done.map((id) => ({
      at: now,
      actor,
      action: auditAction[action.kind],
      target: { type: 'monitor', id: String(id) },
      ip: ctx.ip,
      summary: `${bulkVerb[action.kind]} "${names.get(id) ?? id}" (bulk, ${done.length} monitors)${detail(action)}`,
    }));
    await w.audit(lines);
    return { plan, done };
  });
  // One event a batch, not one a monitor: listeners (scheduler, dashboard rows, browsers) read
  // the batch together instead of 2,000 times one monitor.
  for (let i = 0; i < done.length; i += monitorsEventMax) {
    const monitorIds = done.slice(i, i + monitorsEventMax);
    deps.hub.publish({ kind: 'monitors', change: 'updated', monitorIds });
  }
  return finish(plan, done);
}

async function maintenance(
  deps: ServiceDeps,
  ctx: RequestContext,
  action: MonitorBulkAction & { kind: 'maintenance' },
  plan: BulkPlan,
  finish: (plan: BulkPlan, done: number[]) => MonitorBulkResult,
  result: MonitorBulkResult,
): Promise<MonitorBulkResult> {
  const ids = plan.targets.map((t) => t.id);
  if (ids.length > maintenanceLimits.monitorsMax) {
    throw validationFailed([
      {
        path: 'selection',
        message: `A maintenance window names at most ${maintenanceLimits.monitorsMax.toLocaleString('en')} monitors; ${ids.length.toLocaleString('en')} are selected (a window for all monitors has no limit)`,
        code: 'too_big',
      },
    ]);
  }
  if (ids.length === 0) return finish(plan, []);
  const w = await createWindow(deps, ctx, {
    title: action.title,
    description: '',
    timezone: action.timezone,
    scope: { kind: 'monitors', monitorIds: ids },
    schedule: action.schedule,
  });
  result.maintenanceId = w.id;
  return finish(plan, ids);
}
