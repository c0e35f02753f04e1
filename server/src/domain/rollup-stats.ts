import type { LatencySummary, StatsBucket } from '@pagewatch/contract';
import { LatencySketch } from './latency-sketch.js';
import {
  emptyFigures,
  mergeFigures,
  mergeStoredSketch,
  phaseNames,
  type BucketFigures,
  type RollupFigures,
  type SketchSource,
} from './rollup.js';

export interface RollupSummary {
  checks: number;
  up: number;
  degraded: number;
  down: number;
  /** Milliseconds; min/avg/max exact, p50/p95/p99 within the sketch's relative accuracy. */
  latency: LatencySummary;
}

/** Microseconds to milliseconds with three decimals, as results are shown. */
const usToMs = (us: number | null): number | null => (us === null ? null : Math.round(us) / 1000);

const mean = (sumUs: number, count: number): number | null =>
  count === 0 ? null : usToMs(sumUs / count);

/**
 * Sums the figures of a window and merges the sketches of its stored buckets for the
 * percentiles; a stored bucket serves as both.
 */
export function summarizeRollups(
  rows: readonly RollupFigures[],
  sketches: readonly SketchSource[],
): RollupSummary {
  const total = emptyFigures();
  for (const row of rows) mergeFigures(total, row);
  const sketch = new LatencySketch();
  for (const s of sketches) mergeStoredSketch(sketch, s);
  const { latencyMinUs: min, latencyMaxUs: max } = total;
  // A bucket reads back as its middle value; the true extremes bound every quantile.
  const clamp = (v: number | null) =>
    v === null || min === null || max === null ? null : Math.min(max, Math.max(min, v));
  const [p50, p95, p99] = sketch.quantiles([0.5, 0.95, 0.99]).map(clamp);
  return {
    checks: total.checks,
    up: total.up,
    degraded: total.degraded,
    down: total.down,
    latency: {
      min: usToMs(min),
      avg: mean(total.latencySumUs, total.latencyCount),
      max: usToMs(max),
      p50: usToMs(p50 ?? null),
      p95: usToMs(p95 ?? null),
      p99: usToMs(p99 ?? null),
    },
  };
}

/** Chart buckets of `bucketMs` (a multiple of the rows' granularity), oldest first. */
export function rollupSeries(rows: readonly BucketFigures[], bucketMs: number): StatsBucket[] {
  const byT = new Map<number, RollupFigures>();
  for (const row of rows) {
    const t = Math.floor(row.bucket / bucketMs) * bucketMs;
    let f = byT.get(t);
    if (!f) byT.set(t, (f = emptyFigures()));
    mergeFigures(f, row);
  }
  return [...byT.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, f]) => {
      const point: StatsBucket = {
        t,
        checks: f.checks,
        up: f.up,
        degraded: f.degraded,
        down: f.down,
        latency: mean(f.latencySumUs, f.latencyCount),
        dns: null,
        connect: null,
        tls: null,
        ttfb: null,
        download: null,
      };
      for (const p of phaseNames) point[p] = mean(f.phases[p].sumUs, f.phases[p].count);
      return point;
    });
}
