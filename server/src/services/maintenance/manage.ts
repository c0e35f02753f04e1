import type { FieldError, MaintenanceInput, MaintenanceWindow } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { Timeline } from '../../domain/maintenance/occurrences.js';
import { timingErrors } from '../../domain/maintenance/validate.js';
import { conflict, notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { presentWindow } from './present.js';
import { maintenanceNotice, noticeBaseUrl } from '../../domain/subscriber-notices.js';
import type { MaintenanceNotice } from '../../db/repositories/maintenance.js';
import type { WindowTiming } from '../../domain/maintenance/occurrences.js';

type NoticeChange = 'scheduled' | 'updated' | 'cancelled';

/**
 * What status-page subscribers hear of a window: its next occurrence (or the running one).
 * A window with nothing ahead (ended, or cancelled after it ended) tells nobody.
 */
function subscriberNotice(
  deps: ServiceDeps,
  w: WindowTiming & { title: string; description: string; scope: MaintenanceInput['scope'] },
  change: NoticeChange,
): MaintenanceNotice | null {
  const now = deps.clock.now();
  const timeline = new Timeline(w);
  const next = timeline.activeAt(now)
    ? (timeline.between(now - 1, now + 1)[0] ?? null)
    : (timeline.upcoming(now, 1)[0] ?? null);
  if (!next) return null;
  return {
    monitorIds: w.scope.kind === 'all' ? 'all' : w.scope.monitorIds,
    build: (id) => (page, from) =>
      maintenanceNotice(
        page,
        noticeBaseUrl(page, deps.publicUrl, from),
        {
          id,
          title: w.title,
          description: w.description,
          change,
          startsAt: new Date(next.start).toISOString(),
          endsAt: Number.isFinite(next.end) ? new Date(next.end).toISOString() : null,
        },
        now,
      ),
  };
}

const byLabel = (ctx: RequestContext): string | null =>
  ctx.actor.type === 'anonymous' ? null : ctx.actor.label;

/** Rules the contract cannot check: the rule parses and happens, the monitors exist. */
async function validate(deps: ServiceDeps, input: MaintenanceInput): Promise<void> {
  const errors: FieldError[] = timingErrors(input);
  if (input.scope.kind === 'monitors') {
    const known = new Set((await deps.repos.monitors.list()).map((m) => m.id));
    input.scope.monitorIds.forEach((id, i) => {
      if (!known.has(id)) {
        errors.push({
          path: `scope.monitorIds.${i}`,
          message: `Monitor ${id} does not exist`,
          code: 'unknown_monitor',
        });
      }
    });
  }
  if (errors.length > 0) throw validationFailed(errors);
}

/** Announces the change and waits until this process's index has taken it in. */
async function announce(
  deps: ServiceDeps,
  change: 'created' | 'updated' | 'deleted',
  windowId: number,
): Promise<void> {
  deps.hub.publish({ kind: 'maintenance', change, windowId });
  await deps.maintenance?.ready();
}

const describeScope = (input: MaintenanceInput) =>
  input.scope.kind === 'all' ? 'all monitors' : `${input.scope.monitorIds.length} monitor(s)`;

export async function createWindow(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: MaintenanceInput,
): Promise<MaintenanceWindow> {
  await validate(deps, input);
  const w = await deps.repos.maintenance.insert(
    input,
    deps.clock.now(),
    byLabel(ctx),
    subscriberNotice(deps, input, 'scheduled'),
  );
  await audit(
    deps,
    ctx,
    'maintenance.created',
    { type: 'maintenance', id: w.id },
    `Created maintenance window "${w.title}" (${input.schedule.kind}, ${describeScope(input)})`,
  );
  await announce(deps, 'created', w.id);
  return presentWindow(w, deps.clock.now());
}

export async function updateWindow(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: MaintenanceInput,
): Promise<MaintenanceWindow> {
  const before = await deps.repos.maintenance.findById(id);
  if (!before) throw notFound('Maintenance window');
  if (before.cancelledAt !== null) {
    throw conflict('This window was cancelled; create a new one instead');
  }
  await validate(deps, input);
  const changed = (['title', 'description', 'timezone', 'scope', 'schedule'] as const).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(input[k]),
  );
  const w = await deps.repos.maintenance.replace(
    id,
    input,
    deps.clock.now(),
    byLabel(ctx),
    changed.length > 0 ? subscriberNotice(deps, input, 'updated') : null,
  );
  if (!w) throw notFound('Maintenance window');
  await audit(
    deps,
    ctx,
    'maintenance.updated',
    { type: 'maintenance', id },
    `Updated maintenance window "${w.title}": ${changed.join(', ') || 'no change'}`,
  );
  await announce(deps, 'updated', id);
  return presentWindow(w, deps.clock.now());
}

/** Stops a window for good: a running occurrence ends now and none follow. */
export async function cancelWindow(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<MaintenanceWindow> {
  const before = await deps.repos.maintenance.findById(id);
  if (!before) throw notFound('Maintenance window');
  const now = deps.clock.now();
  const state = new Timeline(before).state(now, before.cancelledAt !== null);
  if (state === 'cancelled') throw conflict('This window is already cancelled');
  if (state === 'ended') throw conflict('This window has already ended');
  await deps.repos.maintenance.cancel(
    id,
    now,
    byLabel(ctx),
    subscriberNotice(deps, before, 'cancelled'),
  );
  await audit(
    deps,
    ctx,
    'maintenance.cancelled',
    { type: 'maintenance', id },
    `Cancelled maintenance window "${before.title}" while ${state}`,
  );
  await announce(deps, 'updated', id);
  const w = await deps.repos.maintenance.findById(id);
  if (!w) throw notFound('Maintenance window');
  return presentWindow(w, deps.clock.now());
}

export async function removeWindow(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const before = await deps.repos.maintenance.findById(id);
  if (!before || !(await deps.repos.maintenance.remove(id))) throw notFound('Maintenance window');
  await audit(
    deps,
    ctx,
    'maintenance.deleted',
    { type: 'maintenance', id },
    `Deleted maintenance window "${before.title}"`,
  );
  await announce(deps, 'deleted', id);
}
