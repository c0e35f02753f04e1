import { LatencySketch } from '../latency-sketch.js';
import { mergeStoredSketch, type SketchSource } from '../rollup.js';

export interface Percentiles {
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

interface Merged {
  sketch: LatencySketch;
  min: number | null;
  max: number | null;
}

const empty = (): Merged => ({ sketch: new LatencySketch(), min: null, max: null });

function add(into: Merged, s: SketchSource): void {
  mergeStoredSketch(into.sketch, s);
  if (s.latencyMinUs !== null)
    into.min = into.min === null ? s.latencyMinUs : Math.min(into.min, s.latencyMinUs);
  if (s.latencyMaxUs !== null)
    into.max = into.max === null ? s.latencyMaxUs : Math.max(into.max, s.latencyMaxUs);
}

/** p50/p95/p99 in ms, clamped to the true min and max as the API's stats are. */
function read(m: Merged): Percentiles {
  const { min, max } = m;
  const ms = (v: number | null | undefined) =>
    v === null || v === undefined || min === null || max === null
      ? null
      : Math.round(Math.min(max, Math.max(min, v))) / 1000;
  const [p50, p95, p99] = m.sketch.quantiles([0.5, 0.95, 0.99]);
  return { p50: ms(p50), p95: ms(p95), p99: ms(p99) };
}

/** Percentiles of stored buckets' latencies (within the sketch's 1 % accuracy). */
export const percentilesOf = (sources: readonly SketchSource[]): Percentiles => {
  const m = empty();
  for (const s of sources) add(m, s);
  return read(m);
};

/**
 * Percentiles per period and over all of them, each stored sketch decoded once: the periods'
 * sketches merge into the total (sketches merge exactly).
 */
export function periodPercentiles(
  rows: readonly (SketchSource & { bucket: number })[],
  periods: readonly { start: number; end: number }[],
): { periods: Percentiles[]; total: Percentiles } {
  const merged = periods.map(empty);
  for (const r of rows) {
    const i = periods.findIndex((p) => r.bucket >= p.start && r.bucket < p.end);
    const m = merged[i];
    if (m) add(m, r);
  }
  const total = empty();
  for (const m of merged) {
    total.sketch.merge(m.sketch);
    if (m.min !== null) total.min = total.min === null ? m.min : Math.min(total.min, m.min);
    if (m.max !== null) total.max = total.max === null ? m.max : Math.max(total.max, m.max);
  }
  return { periods: merged.map(read), total: read(total) };
}
