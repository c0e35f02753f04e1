import type { MonitorStats, StatsWindow } from '@pagewatch/contract';
import { percentile, uptimePercent } from '../../domain/percentiles.js';
import { windowRange } from '../../domain/windows.js';
import type { ServiceDeps } from '../deps.js';
import { getMonitor } from '../monitors/get.js';

export async function monitorStats(
  deps: ServiceDeps,
  monitorId: number,
  window: StatsWindow,
): Promise<MonitorStats> {
  await getMonitor(deps, monitorId);
  const { from, to, bucketMs } = windowRange(window, deps.clock.now());
  const [summary, series] = await Promise.all([
    deps.repos.results.summary(monitorId, from, to),
    deps.repos.results.series(monitorId, from, to, bucketMs),
  ]);
  const lat = summary.latenciesMs;
  const checks = summary.up + summary.degraded + summary.down;
  const sum = lat.reduce((a, b) => a + b, 0);
  const round = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);
  return {
    window,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    checks,
    up: summary.up,
    degraded: summary.degraded,
    down: summary.down,
    uptime: uptimePercent(summary.up, summary.degraded, checks),
    latency: {
      min: round(lat[0] ?? null),
      avg: round(lat.length ? sum / lat.length : null),
      max: round(lat.at(-1) ?? null),
      p50: round(percentile(lat, 50)),
      p95: round(percentile(lat, 95)),
      p99: round(percentile(lat, 99)),
    },
    bucketMs,
    series,
  };
}
