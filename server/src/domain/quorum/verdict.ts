import type { CheckOutcome } from '@pagewatch/contract';

/** One location's latest verdict on a monitor. */
export interface LocationVerdict {
  locationId: string;
  outcome: CheckOutcome;
  /** When the location checked (ms): freshness is measured from it. */
  checkedAt: number;
}

/** What a round's verdicts add up to (ADR 58). */
export type QuorumOutcome = CheckOutcome | 'regional' | 'unknown';

export interface QuorumVerdict {
  outcome: QuorumOutcome;
  /** The locations whose fresh verdict is down, sorted: named on the dashboard. */
  failing: string[];
  /** How many of the monitor's locations gave a fresh verdict. */
  fresh: number;
  /** The k applied: the monitor's own, or a majority of the fresh verdicts. */
  k: number;
}

/**
 * How long a verdict counts (ADR 58): one interval plus a grace of half an interval, at least
 * 10 s and at most 5 min, for a probe's batching, its check's own duration and clock skew.
 * Older than that the location has nothing to say about this round.
 */
export function freshForMs(intervalSec: number): number {
  const interval = intervalSec * 1000;
  return interval + Math.min(300_000, Math.max(10_000, interval / 2));
}

/**
 * The combined verdict of a monitor's locations at `now`: DOWN when at least k fresh verdicts
 * are down; REGIONAL when some but fewer than k are; UNKNOWN when fewer than k fresh verdicts
 * exist (never up). `k` null: a majority of the locations that reported freshly. Otherwise
 * degraded when any fresh verdict is, else up. Verdicts of locations not in `locations` are
 * ignored (a location just removed from the monitor).
 */
export function decideQuorum(input: {
  locations: readonly string[];
  k: number | null;
  verdicts: readonly LocationVerdict[];
  now: number;
  freshMs: number;
}): QuorumVerdict {
  const wanted = new Set(input.locations);
  const fresh = input.verdicts.filter(
    (v) => wanted.has(v.locationId) && input.now - v.checkedAt <= input.freshMs,
  );
  const failing = fresh
    .filter((v) => v.outcome === 'down')
    .map((v) => v.locationId)
    .sort();
  const majority = Math.floor(fresh.length / 2) + 1;
  // A k above the monitor's locations could never be met: the most it can ask is all of them.
  const k = Math.max(1, Math.min(input.k ?? majority, wanted.size));
  const base = { failing, fresh: fresh.length, k };
  if (fresh.length < k) return { ...base, outcome: 'unknown' };
  if (failing.length >= k) return { ...base, outcome: 'down' };
  if (failing.length > 0) return { ...base, outcome: 'regional' };
  return { ...base, outcome: fresh.some((v) => v.outcome === 'degraded') ? 'degraded' : 'up' };
}
