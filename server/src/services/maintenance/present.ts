import type { MaintenanceWindow, Occurrence } from '@pagewatch/contract';
import { Timeline, UPCOMING, type Interval } from '../../domain/maintenance/occurrences.js';
import type { MaintenanceRecord } from '../../domain/maintenance/window.js';

const iso = (ms: number) => new Date(ms).toISOString();

export const presentOccurrence = (o: Interval): Occurrence => ({
  startsAt: iso(o.start),
  endsAt: iso(o.end),
});

/** A window with what it means at `now`: its state, what comes next and when it lets go. */
export function presentWindow(w: MaintenanceRecord, now: number): MaintenanceWindow {
  const timeline = new Timeline(w);
  const cancelled = w.cancelledAt !== null;
  const state = timeline.state(now, cancelled);
  const activeUntil = state === 'active' ? timeline.activeUntil(now) : null;
  return {
    id: w.id,
    title: w.title,
    description: w.description,
    timezone: w.timezone,
    scope: w.scope,
    schedule: w.schedule,
    state,
    nextOccurrences: cancelled ? [] : timeline.upcoming(now, UPCOMING).map(presentOccurrence),
    activeUntil: activeUntil === null ? null : iso(activeUntil),
    cancelledAt: w.cancelledAt === null ? null : iso(w.cancelledAt),
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
    createdBy: w.createdBy,
    updatedBy: w.updatedBy,
  };
}
