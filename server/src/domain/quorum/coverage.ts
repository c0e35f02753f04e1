import type { MonitorStatus } from '@pagewatch/contract';
import { dueOf, roundAt } from '../schedule.js';
import { decideQuorum, freshForMs, type LocationVerdict } from './verdict.js';

/** What the coverage sweep needs of a monitor decided by its locations. */
export interface CoverageSubject {
  id: number;
  /** Seconds. */
  interval: number;
  locations: readonly string[];
  quorum: number | null;
  status: MonitorStatus;
  paused: boolean;
  /** The due time of the last round decided; null: never decided. */
  lastRoundDue: number | null;
}

/** A round the sweep records as UNKNOWN, and why. */
export interface CoverageLoss {
  round: number;
  roundDue: number;
  /** The monitor's locations without a fresh verdict, sorted. */
  missing: string[];
  fresh: number;
  k: number;
}

/** The monitor's locations with no fresh verdict at `now`, sorted. */
export function missingLocations(
  locations: readonly string[],
  verdicts: readonly LocationVerdict[],
  now: number,
  intervalSec: number,
): string[] {
  const freshMs = freshForMs(intervalSec);
  const fresh = new Set(
    verdicts.filter((v) => now - v.checkedAt <= freshMs).map((v) => v.locationId),
  );
  return locations.filter((l) => !fresh.has(l)).sort();
}

/**
 * Whether the sweep records UNKNOWN for the round running at `now` (issue 16 item 4): its
 * locations went silent, so no result will decide it. Only a round no decision has covered yet
 * (a decision stands for its round), only when fewer than k fresh verdicts exist, and never
 * anything but UNKNOWN: silence is no evidence of an outage. Paused, never-decided and
 * already-unknown monitors are left alone.
 */
export function coverageLost(
  m: CoverageSubject,
  verdicts: readonly LocationVerdict[],
  now: number,
): CoverageLoss | null {
  if (m.paused || m.status === 'unknown' || m.lastRoundDue === null) return null;
  const intervalMs = m.interval * 1000;
  const round = roundAt(m.id, intervalMs, now);
  const roundDue = dueOf(m.id, intervalMs, round);
  if (roundDue <= m.lastRoundDue) return null;
  const verdict = decideQuorum({
    locations: m.locations,
    k: m.quorum,
    verdicts,
    now,
    freshMs: freshForMs(m.interval),
  });
  if (verdict.outcome !== 'unknown') return null;
  const missing = missingLocations(m.locations, verdicts, now, m.interval);
  return { round, roundDue, missing, fresh: verdict.fresh, k: verdict.k };
}

/** The words of a sweep's UNKNOWN: the flip and the dashboard say which locations are silent. */
export function coverageMessage(missingNames: readonly string[], fresh: number, k: number): string {
  const from = missingNames.length > 0 ? ` from ${missingNames.join(', ')}` : '';
  return `Status unknown: no recent result${from} (${fresh} of the ${k} needed)`;
}

/** The admins' one notice: how many monitors are unknown for lack of results, and from where. */
export interface CoverageSummary {
  monitors: number;
  /** The silent locations, each with how many of those monitors miss it; by name. */
  locations: { id: string; name: string; monitors: number }[];
  /** When the longest-unknown of them became unknown (ms); null: none. */
  since: number | null;
}

/** Sums the unknown monitors' silent locations into the one notice (none: zero monitors). */
export function summariseCoverage(
  unknown: readonly { missing: readonly string[]; since: number | null }[],
  nameOf: (locationId: string) => string,
): CoverageSummary {
  const counts = new Map<string, number>();
  let since: number | null = null;
  let monitors = 0;
  for (const m of unknown) {
    if (m.missing.length === 0) continue;
    monitors += 1;
    if (m.since !== null && (since === null || m.since < since)) since = m.since;
    for (const l of m.missing) counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  const locations = [...counts]
    .map(([id, n]) => ({ id, name: nameOf(id), monitors: n }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { monitors, locations, since };
}
