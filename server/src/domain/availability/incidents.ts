import { clipIntervals, mergeIntervals, type Interval } from './intervals.js';

/** Outages over a range: how many, how long in all, mean time to recover and between them. */
export interface OutageFigures {
  count: number;
  totalMs: number;
  /** Mean outage length; null without outages. */
  mttrMs: number | null;
  /** Counted time outside outages per outage; null without outages. */
  mtbfMs: number | null;
}

/**
 * Outages (incidents: opened → resolved, or now) inside a range, excluded periods cut out of
 * them; an outage wholly inside maintenance or a correction does not count. MTBF is the
 * counted time the monitor was not in an outage divided by the outages.
 */
export function outageFigures(
  outages: readonly Interval[],
  range: Interval,
  excluded: readonly Interval[],
  countedMs: number,
): OutageFigures {
  const cut = mergeIntervals(excluded);
  const kept: number[] = [];
  for (const o of clipIntervals(outages, range)) {
    let left = o.end - o.start;
    for (const e of cut) {
      const ms = Math.min(o.end, e.end) - Math.max(o.start, e.start);
      if (ms > 0) left -= ms;
    }
    if (left > 0) kept.push(left);
  }
  const count = kept.length;
  const sum = kept.reduce((a, b) => a + b, 0);
  return {
    count,
    totalMs: sum,
    mttrMs: count === 0 ? null : Math.round(sum / count),
    mtbfMs: count === 0 ? null : Math.round(Math.max(0, countedMs - sum) / count),
  };
}
