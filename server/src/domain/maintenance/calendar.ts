import type { MaintenanceScope } from '@pagewatch/contract';
import { Timeline, type Interval, type WindowTiming } from './occurrences.js';

export interface CalendarWindow extends WindowTiming {
  id: number;
  scope: MaintenanceScope;
  cancelled: boolean;
}

interface Entry {
  monitors: ReadonlySet<number> | 'all';
  /** Merged occurrences within the horizon, by start. */
  intervals: Interval[];
}

function merge(intervals: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const i of intervals) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/**
 * Which monitors are in maintenance when, over a bounded horizon: the windows expanded once so
 * that the per-check question is a lookup. Answers outside [from, to) are not known: the owner
 * builds a new calendar when time leaves the horizon.
 */
export class MaintenanceCalendar {
  private readonly entries: Entry[];

  constructor(
    windows: readonly CalendarWindow[],
    readonly from: number,
    readonly to: number,
  ) {
    this.entries = windows
      .filter((w) => !w.cancelled)
      .map((w): Entry => ({
        monitors: w.scope.kind === 'all' ? 'all' : new Set(w.scope.monitorIds),
        intervals: merge(new Timeline(w).between(from, to)),
      }))
      .filter((e) => e.intervals.length > 0);
  }

  covers(t: number): boolean {
    return t >= this.from && t < this.to;
  }

  inMaintenance(monitorId: number, t: number): boolean {
    return this.entries.some(
      (e) =>
        (e.monitors === 'all' || e.monitors.has(monitorId)) &&
        e.intervals.some((i) => i.start <= t && t < i.end),
    );
  }

  /** The first start or end of an occurrence after `t` within the horizon; null when none. */
  nextBoundary(t: number): number | null {
    let next: number | null = null;
    for (const e of this.entries) {
      for (const i of e.intervals) {
        for (const b of [i.start, i.end]) {
          if (b > t && b < this.to && (next === null || b < next)) next = b;
        }
      }
    }
    return next;
  }
}
