import { uptimePercent } from '../percentiles.js';
import { subtractCounts, type OutcomeCounts } from './counts.js';
import { clipIntervals, mergeIntervals, totalMs, type Interval } from './intervals.js';

/** What counts against availability (ADR 54). */
export interface AvailabilityPolicy {
  /** Degraded checks count as failed; by default they delivered, as the dashboard has always shown. */
  degradedCountsAsDown: boolean;
  /** Checks and time inside maintenance windows are left out; on by default. */
  excludeMaintenance: boolean;
}

export const defaultPolicy: AvailabilityPolicy = {
  degradedCountsAsDown: false,
  excludeMaintenance: true,
};

/** The periods left out of a range, merged and clipped to it. */
export function exclusions(
  range: Interval,
  maintenance: readonly Interval[],
  corrections: readonly Interval[],
  policy: AvailabilityPolicy = defaultPolicy,
): Interval[] {
  const list = policy.excludeMaintenance ? [...maintenance, ...corrections] : [...corrections];
  return clipIntervals(mergeIntervals(list), range);
}

export interface AvailabilityInput {
  /** The range measured; its end no later than now (time to come has no checks). */
  range: Interval;
  /** Every check in the range. */
  counts: OutcomeCounts;
  /** The checks in the rollup buckets the exclusions touch (see `toBuckets`). */
  excludedCounts: OutcomeCounts;
  maintenance: readonly Interval[];
  corrections: readonly Interval[];
}

/** One monitor's availability over a range: the figure every screen, report and SLO shows. */
export interface Availability {
  from: number;
  to: number;
  /** Checks counted (after exclusions) and their outcomes. */
  checks: number;
  up: number;
  degraded: number;
  down: number;
  /** Checks left out by maintenance and corrections. */
  excludedChecks: number;
  /** Percent of counted checks that delivered, three decimals; null without checks. */
  uptime: number | null;
  /** The range's time less the excluded time. */
  countedMs: number;
  /** The failed share of the counted time: checks are samples of it. */
  downtimeMs: number;
  /** Time excluded by maintenance windows (0 when the policy counts maintenance). */
  maintenanceMs: number;
  /** Time excluded by corrections that maintenance did not already exclude. */
  correctedMs: number;
}

/**
 * Availability is counted in checks, as the rollups store them: uptime = delivered / checks,
 * with the checks of excluded periods taken out. Downtime is the failed share of the time
 * left, so a monitor checked every minute that failed 3 checks shows about 3 minutes.
 */
export function availability(
  input: AvailabilityInput,
  policy: AvailabilityPolicy = defaultPolicy,
): Availability {
  const { range } = input;
  const counted = subtractCounts(input.counts, input.excludedCounts);
  const maintenance = policy.excludeMaintenance
    ? clipIntervals(mergeIntervals(input.maintenance), range)
    : [];
  const excluded = exclusions(range, input.maintenance, input.corrections, policy);
  const excludedMs = totalMs(excluded);
  const maintenanceMs = totalMs(maintenance);
  const countedMs = Math.max(0, range.end - range.start - excludedMs);
  const good = counted.up + (policy.degradedCountsAsDown ? 0 : counted.degraded);
  const uptime = uptimePercent(good, 0, counted.checks);
  const bad = counted.checks - good;
  return {
    from: range.start,
    to: range.end,
    checks: counted.checks,
    up: counted.up,
    degraded: counted.degraded,
    down: counted.down,
    excludedChecks: input.counts.checks - counted.checks,
    uptime,
    countedMs,
    downtimeMs: counted.checks === 0 ? 0 : Math.round((countedMs * bad) / counted.checks),
    maintenanceMs,
    correctedMs: excludedMs - maintenanceMs,
  };
}
