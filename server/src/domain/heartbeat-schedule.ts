import {
  compileSchedule,
  instantOfWallClock,
  offsetAt,
  wallClockAt,
  type HeartbeatSchedule,
} from '@pagewatch/contract';
import { Cron } from 'croner';

/**
 * When a scheduled job is next expected, DST included. The cron library walks "floating" time
 * (the wall-clock reading written as if it were UTC, as maintenance windows do, ADR 36), which
 * has no DST; each reading becomes an instant in the monitor's zone with the rules of
 * contract/zoned-time.ts:
 * - a run due inside a spring-forward gap (02:30 on the day Berlin jumps 02:00 → 03:00) is
 *   expected at the first instant after the gap, 03:00 local, as cron daemons run it;
 * - a run due in the repeated autumn hour is expected once, at the first of the two readings;
 *   after a ping in the second pass of that hour, the next run is the first reading after it.
 */

const HOUR = 3_600_000;
/** Readings this far before `after` can still map to an instant after it (an offset change is ≤ 2 h). */
const ZONE_SLACK = 3 * HOUR;
/** Enough readings for a minutely schedule to cross any zone's slack and a DST change. */
const MAX_STEPS = 3000;

type Scheduled = Extract<HeartbeatSchedule, { kind: 'cron' | 'oncalendar' }>;

const crons = new Map<string, Cron | null>();

function cronOf(schedule: Scheduled): Cron | null {
  const key = `${schedule.kind}\n${schedule.expression}`;
  let cron = crons.get(key);
  if (cron === undefined) {
    const compiled = compileSchedule(schedule.kind, schedule.expression);
    cron = compiled.ok
      ? new Cron(compiled.schedule.cron, {
          paused: true,
          timezone: 'Etc/UTC',
          domAndDow: compiled.schedule.domAndDow,
        })
      : null;
    if (crons.size > 5000) crons.clear();
    crons.set(key, cron);
  }
  return cron;
}

function floatingOf(t: number, zone: string): number {
  const w = wallClockAt(t, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

/** The first run of `schedule` strictly after instant `after`; null when it never runs again. */
export function nextRunAfter(schedule: Scheduled, after: number): number | null {
  const cron = cronOf(schedule);
  if (cron === null) return null;
  const zone = schedule.timezone;
  // Only when the clocks changed shortly before `after` can an earlier reading still be ahead;
  // otherwise the walk starts at `after`'s own reading (a few steps instead of hours of them).
  const changed = offsetAt(after - ZONE_SLACK, zone) !== offsetAt(after, zone);
  let prev = new Date(floatingOf(after, zone) - (changed ? ZONE_SLACK : 1000));
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const next = cron.nextRun(prev);
    if (!next) return null;
    const at = instantOfWallClock(next.getTime(), zone);
    if (at > after) return at;
    prev = next;
  }
  return null;
}

/** The schedule of a push monitor's settings; rows from before schedules are interval ones. */
export function scheduleOf(settings: { schedule?: HeartbeatSchedule }): HeartbeatSchedule {
  return settings.schedule ?? { kind: 'interval' };
}
