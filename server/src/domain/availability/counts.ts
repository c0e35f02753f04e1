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
