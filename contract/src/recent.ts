import type { CheckOutcome } from './checks.js';

/** The compact sparkline form of MonitorSummary.recent; kept free of zod for the dashboard bundle. */
export interface RecentChecksData {
  outcomes: string;
  latencyMs: (number | null)[];
}

const letter = { up: 'u', degraded: 'w', down: 'd' } as const;
const outcomeOf = { u: 'up', w: 'degraded', d: 'down' } as const;

export const emptyRecent = (): RecentChecksData => ({ outcomes: '', latencyMs: [] });

export function decodeRecent(
  r: RecentChecksData,
): { outcome: CheckOutcome; latencyMs: number | null }[] {
  return [...r.outcomes].map((c, i) => ({
    outcome: outcomeOf[c as keyof typeof outcomeOf],
    latencyMs: r.latencyMs[i] ?? null,
  }));
}

/** Encodes checks (oldest first) in one pass, keeping the newest `keep`. */
export function encodeRecent(
  checks: readonly (readonly [CheckOutcome, number | null])[],
  keep: number,
): RecentChecksData {
  const kept = checks.slice(-keep);
  return {
    outcomes: kept.map(([o]) => letter[o]).join(''),
    latencyMs: kept.map(([, ms]) => (ms === null ? null : Math.round(ms * 10) / 10)),
  };
}

/** Appends one check, keeping at most `keep` (the oldest fall off). */
export function appendRecent(
  r: RecentChecksData,
  outcome: CheckOutcome,
  latencyMs: number | null,
  keep: number,
): RecentChecksData {
  const rounded = latencyMs === null ? null : Math.round(latencyMs * 10) / 10;
  return {
    outcomes: (r.outcomes + letter[outcome]).slice(-keep),
    latencyMs: [...r.latencyMs, rounded].slice(-keep),
  };
}
