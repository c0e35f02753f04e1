import type { CheckErrorCode } from '@pagewatch/contract';
import type { CheckRun } from './check-run.js';

/** Failures a stalled process can cause by itself: its own timers fired late. */
const TIMING_CODES = new Set<CheckErrorCode | null>([
  'timeout',
  'connect_timeout',
  'dns_timeout',
  'heartbeat_missed',
]);

/** Share of a check's duration the process must have been stalled for its timeout not to count. */
export const STALL_SHARE = 0.2;
/** A stall shorter than this is noise, whatever the share. */
export const STALL_MIN_MS = 250;
/**
 * Results thrown away in a row before one counts anyway: an overloaded Pagewatch must
 * not hide a real outage forever, only delay it by a few re-checks.
 */
export const MAX_DISCARDS = 3;

export type OverloadVerdict = 'overloaded' | 'stalled' | null;

/**
 * Whether a check's failure is Pagewatch's own rather than its target's (issue: "a check that
 * could not run because Pagewatch itself is overloaded never counts as the target's failure"):
 * `overloaded` when the check could not get local resources (file descriptors, buffers),
 * `stalled` when it timed out while this process was stalled for a good part of its run.
 */
export function overloadVerdict(
  run: Pick<CheckRun, 'outcome' | 'errorCode'>,
  durationMs: number,
  stalledMs: number,
  discardedInARow: number,
): OverloadVerdict {
  if (run.outcome !== 'down' || discardedInARow >= MAX_DISCARDS) return null;
  if (run.errorCode === 'overloaded') return 'overloaded';
  if (!TIMING_CODES.has(run.errorCode)) return null;
  const stalled = stalledMs >= STALL_MIN_MS && stalledMs >= STALL_SHARE * durationMs;
  return stalled ? 'stalled' : null;
}
