import { maintenanceByMonitor, toBuckets, type Interval } from '../../domain/availability/index.js';
import { levelMs } from '../../domain/rollup.js';
import { HOUR_SLOTS, MINUTE_SLOTS, MonitorCounters } from '../../domain/slo/index.js';
import type { ServiceDeps } from '../deps.js';

const MINUTE = levelMs.minute;
const HOUR = levelMs.hour;

type CounterDeps = Pick<ServiceDeps, 'repos'>;

/** Whether [bucket, bucket + size) touches any of the (bucket-widened) intervals. */
const touches = (list: readonly Interval[] | undefined, bucket: number, size: number) =>
  !!list && list.some((i) => i.start < bucket + size && i.end > bucket);

const none = { checks: 0, degraded: 0, down: 0 };

/**
 * The first minute not yet closed at `now`: results of a minute are written within seconds
 * of it, so the minute before is read once this grace has passed.
 */
export const closedMinute = (now: number, graceMs = 10_000): number =>
  Math.floor((now - graceMs) / MINUTE) * MINUTE;

/** Maintenance of these monitors over [from, to), widened to the rollup buckets it touches. */
export async function maintainedBuckets(
  deps: CounterDeps,
  monitorIds: readonly number[],
  from: number,
  to: number,
): Promise<Map<number, Interval[]>> {
  const windows = await deps.repos.maintenance.list();
  const byMonitor = maintenanceByMonitor(windows, monitorIds, { start: from, end: to });
  const out = new Map<number, Interval[]>();
  for (const [id, list] of byMonitor) if (list.length > 0) out.set(id, toBuckets(list, MINUTE));
  return out;
}

/**
 * Reads minutes [from, to) of these monitors into their counters; a minute a maintenance
 * window touched counts nothing (ADR 53: burn-rate alerts never fire on planned work).
 */
export async function readMinutes(
  deps: CounterDeps,
  counters: Map<number, MonitorCounters>,
  monitorIds: readonly number[],
  from: number,
  to: number,
): Promise<void> {
  if (monitorIds.length === 0 || to <= from) return;
  const [rows, maintained] = await Promise.all([
    deps.repos.slos.counts('minute', monitorIds, from, to),
    maintainedBuckets(deps, monitorIds, from, to),
  ]);
  rows.sort((a, b) => a.bucket - b.bucket);
  for (const r of rows) {
    const c = counters.get(r.monitorId);
    if (!c) continue;
    c.setMinute(r.bucket, touches(maintained.get(r.monitorId), r.bucket, MINUTE) ? none : r);
  }
}

/**
 * Fresh counters for monitors met for the first time: the 72 whole hours before this one from
 * the hourly rollups, then the last 60 minutes.
 */
export async function loadCounters(
  deps: CounterDeps,
  monitorIds: readonly number[],
  closedTo: number,
): Promise<Map<number, MonitorCounters>> {
  const out = new Map<number, MonitorCounters>();
  for (const id of monitorIds) out.set(id, new MonitorCounters());
  if (monitorIds.length === 0) return out;
  const hourStart = Math.floor(closedTo / HOUR) * HOUR;
  const from = hourStart - HOUR_SLOTS * HOUR;
  const [hours, maintained] = await Promise.all([
    deps.repos.slos.counts('hour', monitorIds, from, hourStart),
    maintainedBuckets(deps, monitorIds, from, hourStart),
  ]);
  for (const r of hours) {
    out
      .get(r.monitorId)
      ?.setHour(r.bucket, touches(maintained.get(r.monitorId), r.bucket, HOUR) ? none : r);
  }
  await readMinutes(deps, out, monitorIds, closedTo - MINUTE_SLOTS * MINUTE, closedTo);
  return out;
}
