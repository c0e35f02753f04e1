import { levelMs, type Span } from '../rollup.js';

/** Checks by outcome, as the rollups count them. */
export interface OutcomeCounts {
  checks: number;
  up: number;
  degraded: number;
  down: number;
}

/** A rollup bucket's counts: `bucket` is its start, `size` its length in ms. */
export interface CountedBucket extends OutcomeCounts {
  monitorId: number;
  bucket: number;
  size: number;
}

export const noCounts = (): OutcomeCounts => ({ checks: 0, up: 0, degraded: 0, down: 0 });

export function addCounts(into: OutcomeCounts, from: OutcomeCounts): OutcomeCounts {
  into.checks += from.checks;
  into.up += from.up;
  into.degraded += from.degraded;
  into.down += from.down;
  return into;
}

export function subtractCounts(from: OutcomeCounts, minus: OutcomeCounts): OutcomeCounts {
  return {
    checks: Math.max(0, from.checks - minus.checks),
    up: Math.max(0, from.up - minus.up),
    degraded: Math.max(0, from.degraded - minus.degraded),
    down: Math.max(0, from.down - minus.down),
  };
}

/**
 * Sums the buckets starting in [start, end), as the rollups are read: spans tile a period,
 * so a bucket belongs to the period its start lies in (the current minute is still filling).
 */
export function countsWithin(
  buckets: readonly CountedBucket[],
  start: number,
  end: number,
): OutcomeCounts {
  const sum = noCounts();
  for (const b of buckets) {
    if (b.bucket >= start && b.bucket < end) addCounts(sum, b);
  }
  return sum;
}

/**
 * Sums the buckets of exactly these spans (level and bucket starts): a period read as whole
 * days must not also count the hours of another period's read of the same time.
 */
export function countsInSpans(
  buckets: readonly CountedBucket[],
  spans: readonly Span[],
): OutcomeCounts {
  const sum = noCounts();
  for (const s of spans) {
    const size = levelMs[s.level];
    for (const b of buckets) {
      if (b.size === size && b.bucket >= s.from && b.bucket <= s.to) addCounts(sum, b);
    }
  }
  return sum;
}

/** The distinct spans of several reads, for one query. */
export function uniqueSpans(spans: readonly Span[]): Span[] {
  const seen = new Set<string>();
  return spans.filter((s) => {
    const key = `${s.level}:${s.from}:${s.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
