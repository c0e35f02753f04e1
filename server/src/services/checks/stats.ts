import type { MonitorStats, StatsWindow } from '@pagewatch/contract';
import { uptimePercent } from '../../domain/percentiles.js';
import { coarsestSpans } from '../../domain/rollup.js';
import { rollupSeries, summarizeRollups } from '../../domain/rollup-stats.js';
import { windowRange } from '../../domain/windows.js';
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
  const [buckets, sketches] = await Promise.all([
    deps.repos.rollups.buckets(rollup, monitorId, from, to, bucketMs),
    deps.repos.rollups.sketches(monitorId, coarsestSpans(rollup, from, to)),
  ]);
  const summary = summarizeRollups(buckets, sketches);
  return {
    window,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    checks: summary.checks,
    up: summary.up,
    degraded: summary.degraded,
    down: summary.down,
    uptime: uptimePercent(summary.up, summary.degraded, summary.checks),
    latency: summary.latency,
    bucketMs,
    series: rollupSeries(buckets, bucketMs),
  };
}
