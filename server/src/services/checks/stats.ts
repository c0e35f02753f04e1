import type { MonitorStats, StatsWindow } from '@pagewatch/contract';
import { coarsestSpans } from '../../domain/rollup.js';
import { rollupSeries, summarizeRollups } from '../../domain/rollup-stats.js';
import { windowRange } from '../../domain/windows.js';
import { availabilityOf } from '../availability/over.js';
import type { ServiceDeps } from '../deps.js';
import { getMonitor } from '../monitors/get.js';

/**
 * A monitor's figures over a window, from the coarsest rollup that tiles it (minutes for 1 h
 * and 24 h, hours for 7 d and 30 d, days for 90 d): counts, min/avg/max and the chart are
 * exact; p50/p95/p99 come from sketches merged from the coarsest buckets that fit inside the
 * window, within their 1 % relative accuracy.
 */
export async function monitorStats(
  deps: ServiceDeps,
  monitorId: number,
  window: StatsWindow,
): Promise<MonitorStats> {
  await getMonitor(deps, monitorId);
  const { from, to, bucketMs, rollup } = windowRange(window, deps.clock.now());
  const [buckets, sketches, availability] = await Promise.all([
    deps.repos.rollups.buckets(rollup, monitorId, from, to, bucketMs),
    deps.repos.rollups.sketches(monitorId, coarsestSpans(rollup, from, to)),
    availabilityOf(deps, monitorId, { start: from, end: to + 1 }),
  ]);
  const summary = summarizeRollups(buckets, sketches);
  return {
    window,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    // Counts and uptime from the one computation (maintenance and corrections left out);
    // the latency figures and the chart show every check.
    checks: availability.checks,
    up: availability.up,
    degraded: availability.degraded,
    down: availability.down,
    uptime: availability.uptime,
    excludedChecks: availability.excludedChecks,
    downtimeMs: availability.downtimeMs,
    latency: summary.latency,
    bucketMs,
    series: rollupSeries(buckets, bucketMs),
  };
}
