/** A span of time in epoch ms, end exclusive (the shape maintenance occurrences use). */
export interface Interval {
  start: number;
  end: number;
}

/** Sorted, overlapping and touching intervals joined; empty ones dropped. */
export function mergeIntervals(list: readonly Interval[]): Interval[] {
  const sorted = list.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ start: i.start, end: i.end });
  }
  return out;
}

/** The parts of `list` inside `range`. */
export function clipIntervals(list: readonly Interval[], range: Interval): Interval[] {
  return list
    .map((i) => ({ start: Math.max(i.start, range.start), end: Math.min(i.end, range.end) }))
    .filter((i) => i.end > i.start);
}

/** Total length of merged intervals. */
export const totalMs = (list: readonly Interval[]): number =>
  mergeIntervals(list).reduce((sum, i) => sum + (i.end - i.start), 0);

/** How much of `a` (merged) overlaps `b` (merged). */
export function overlapMs(a: readonly Interval[], b: readonly Interval[]): number {
  let sum = 0;
  for (const x of mergeIntervals(a)) {
    for (const y of mergeIntervals(b)) {
      const ms = Math.min(x.end, y.end) - Math.max(x.start, y.start);
      if (ms > 0) sum += ms;
    }
  }
  return sum;
}

/**
 * The intervals widened to whole buckets of `bucketMs`: every bucket an interval touches.
 * Rollups know checks per bucket only, so an exclusion takes out the buckets it touches
 * (a 10:00:30–10:05 window takes the 10:00–10:05 minutes), as the status page's bars do.
 */
export function toBuckets(list: readonly Interval[], bucketMs: number): Interval[] {
  return mergeIntervals(
    list.map((i) => ({
      start: Math.floor(i.start / bucketMs) * bucketMs,
      end: Math.ceil(i.end / bucketMs) * bucketMs,
    })),
  );
}
