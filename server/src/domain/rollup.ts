import type { CheckOutcome } from '@pagewatch/contract';
import { LatencySketch } from './latency-sketch.js';

/** Rollup granularities, finest first. Buckets start at UTC multiples of their size. */
export const rollupLevels = ['minute', 'hour', 'day'] as const;
export type RollupLevel = (typeof rollupLevels)[number];

export const levelMs: Record<RollupLevel, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

export const bucketOf = (level: RollupLevel, at: number): number =>
  Math.floor(at / levelMs[level]) * levelMs[level];

/** Buckets of `level` whose start lies within [from, to]. */
export interface Span {
  level: RollupLevel;
  from: number;
  to: number;
}

/**
 * The same checks as the `level` buckets starting within [from, to], read from the coarsest
 * buckets that hold exactly those checks: a 24 h window of minutes becomes a few edge minutes
 * around whole hours (and whole days where they fit). Sketches merge exactly, so percentiles
 * don't change; they just cost 30 rows instead of 1,440.
 */
export function coarsestSpans(level: RollupLevel, from: number, to: number): Span[] {
  const next = rollupLevels[rollupLevels.indexOf(level) + 1];
  if (!next || from > to) return from > to ? [] : [{ level, from, to }];
  const size = levelMs[next];
  const start = Math.ceil(from / size) * size;
  // Exclusive: coarser buckets must end by the end of the last `level` bucket in range.
  const end = Math.floor((bucketOf(level, to) + levelMs[level]) / size) * size;
  if (start >= end) return [{ level, from, to }];
  const spans = [{ level, from, to: start - 1 }, ...coarsestSpans(next, start, end - size)];
  spans.push({ level, from: end, to });
  return spans.filter((s) => s.from <= s.to);
}

export const phaseNames = ['dns', 'connect', 'tls', 'ttfb', 'download'] as const;
export type PhaseName = (typeof phaseNames)[number];

/** One check as the rollups see it; latencies in integer microseconds, as stored. */
export interface RolledCheck {
  monitorId: number;
  at: number;
  outcome: CheckOutcome;
  latencyUs: number | null;
  phasesUs: Record<PhaseName, number | null>;
}

/**
 * What a bucket knows about its checks. Latency and phase figures count delivered checks only
 * (up or degraded): a failed check's time says how long it took to fail, not how fast it was.
 */
export interface RollupFigures {
  checks: number;
  up: number;
  degraded: number;
  down: number;
  latencySumUs: number;
  latencyCount: number;
  latencyMinUs: number | null;
  latencyMaxUs: number | null;
  phases: Record<PhaseName, { sumUs: number; count: number }>;
}

/** A batch's contribution to one bucket, with its latencies as a sketch. */
export interface RollupDelta extends RollupFigures {
  monitorId: number;
  bucket: number;
  sketch: LatencySketch;
}

/** Figures of the checks in a span starting at `bucket` (a stored bucket, or several summed). */
export interface BucketFigures extends RollupFigures {
  bucket: number;
}

/** What a stored bucket's latencies are rebuilt from. */
export interface SketchSource {
  /** Null when the bucket holds at most two latencies: its min and max are then all of them. */
  sketch: Uint8Array | null;
  latencyCount: number;
  latencyMinUs: number | null;
  latencyMaxUs: number | null;
}

/** A bucket as stored. */
export interface StoredRollup extends BucketFigures, SketchSource {}

export function emptyFigures(): RollupFigures {
  const phases = {} as RollupFigures['phases'];
  for (const p of phaseNames) phases[p] = { sumUs: 0, count: 0 };
  return {
    checks: 0,
    up: 0,
    degraded: 0,
    down: 0,
    latencySumUs: 0,
    latencyCount: 0,
    latencyMinUs: null,
    latencyMaxUs: null,
    phases,
  };
}

const minOf = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b);
const maxOf = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

function addCheck(d: RollupDelta, c: RolledCheck): void {
  d.checks += 1;
  d[c.outcome] += 1;
  if (c.outcome === 'down') return;
  if (c.latencyUs !== null) {
    d.latencySumUs += c.latencyUs;
    d.latencyCount += 1;
    d.latencyMinUs = minOf(d.latencyMinUs, c.latencyUs);
    d.latencyMaxUs = maxOf(d.latencyMaxUs, c.latencyUs);
    d.sketch.add(c.latencyUs);
  }
  for (const p of phaseNames) {
    const us = c.phasesUs[p];
    if (us === null) continue;
    d.phases[p].sumUs += us;
    d.phases[p].count += 1;
  }
}

/** Folds checks into one delta per monitor and bucket, in any order of arrival. */
export function foldChecks(level: RollupLevel, checks: Iterable<RolledCheck>): RollupDelta[] {
  const byKey = new Map<string, RollupDelta>();
  for (const c of checks) {
    const bucket = bucketOf(level, c.at);
    const key = `${c.monitorId}:${bucket}`;
    let d = byKey.get(key);
    if (!d) {
      d = { monitorId: c.monitorId, bucket, sketch: new LatencySketch(), ...emptyFigures() };
      byKey.set(key, d);
    }
    addCheck(d, c);
  }
  return [...byKey.values()];
}

/** Adds `from`'s counts and sums to `into`. */
export function mergeFigures(into: RollupFigures, from: RollupFigures): void {
  into.checks += from.checks;
  into.up += from.up;
  into.degraded += from.degraded;
  into.down += from.down;
  into.latencySumUs += from.latencySumUs;
  into.latencyCount += from.latencyCount;
  into.latencyMinUs = minOf(into.latencyMinUs, from.latencyMinUs);
  into.latencyMaxUs = maxOf(into.latencyMaxUs, from.latencyMaxUs);
  for (const p of phaseNames) {
    into.phases[p].sumUs += from.phases[p].sumUs;
    into.phases[p].count += from.phases[p].count;
  }
}

/** Buckets with at most two latencies store no sketch: it would only repeat min and max. */
export const keepsSketch = (latencyCount: number): boolean => latencyCount > 2;

/** Merges a stored bucket's latencies into `into`, rebuilding them from min/max when implied. */
export function mergeStoredSketch(into: LatencySketch, row: SketchSource): void {
  if (row.sketch) {
    into.mergeBytes(row.sketch);
    return;
  }
  if (row.latencyCount >= 1 && row.latencyMinUs !== null) into.add(row.latencyMinUs);
  if (row.latencyCount >= 2 && row.latencyMaxUs !== null) into.add(row.latencyMaxUs);
}
