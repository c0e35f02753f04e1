import { LatencySketch } from '../latency-sketch.js';
import { mergeStoredSketch, type SketchSource } from '../rollup.js';

export interface Percentiles {
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/**
 * p50/p95/p99 in ms of stored buckets' latencies, merged from their sketches as the API's
 * stats do (within the sketch's 1 % accuracy, clamped to the true min and max).
 */
export function percentilesOf(sources: readonly SketchSource[]): Percentiles {
  const sketch = new LatencySketch();
  let min: number | null = null;
  let max: number | null = null;
  for (const s of sources) {
    mergeStoredSketch(sketch, s);
    if (s.latencyMinUs !== null)
      min = min === null ? s.latencyMinUs : Math.min(min, s.latencyMinUs);
    if (s.latencyMaxUs !== null)
      max = max === null ? s.latencyMaxUs : Math.max(max, s.latencyMaxUs);
  }
  const ms = (v: number | null | undefined) =>
    v === null || v === undefined || min === null || max === null
      ? null
      : Math.round(Math.min(max, Math.max(min, v))) / 1000;
  const [p50, p95, p99] = sketch.quantiles([0.5, 0.95, 0.99]);
  return { p50: ms(p50), p95: ms(p95), p99: ms(p99) };
}
