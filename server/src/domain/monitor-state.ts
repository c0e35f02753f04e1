import type { CheckOutcome, MonitorStatus } from '@pagewatch/contract';
import type { FailureCause } from './incidents.js';

/** The part of a monitor's status that survives between checks. */
export interface MonitorState {
  status: MonitorStatus;
  /** Consecutive failed checks not yet confirmed as down (or since it went down). */
  failures: number;
  /**
   * The first failed check of the current streak: an outage's cause and start. Kept in memory
   * only; after a restart mid-streak the first failure seen since is used instead.
   */
  firstFailure?: FailureCause | null;
}

export interface Transition {
  next: MonitorState;
  /** Set when a confirmed status (up/degraded/down) changed: this fires events. */
  flip: { from: MonitorStatus; to: MonitorStatus } | null;
  /**
   * When the next check should run: after the `interval`, after the `retry` interval (a failure
   * is being confirmed), or at once to `confirm` a DOWN (the next failure would make it down).
   */
  nextCheck: NextCheck;
}

export type NextCheck = 'interval' | 'retry' | 'confirm';

export const initialState: MonitorState = { status: 'pending', failures: 0, firstFailure: null };

const confirmed = new Set<MonitorStatus>(['up', 'degraded', 'down']);

/**
 * SPEC §4: a monitor goes down after `retries + 1` consecutive failures; one
 * delivered check brings it back to up or degraded. Failures not yet confirmed
 * keep the previous status (pending for a new monitor). `check` is the failing
 * check's time and error: the streak remembers its first one.
 *
 * The failure that would confirm a DOWN is always an immediate re-check: retries are
 * spaced by the retry interval, but the last one runs at once, so a DOWN is never
 * announced on the strength of a minutes-old failure and a one-off blip (a dropped
 * packet, a DNS hiccup) clears before anyone is told.
 */
export function applyOutcome(
  state: MonitorState,
  outcome: CheckOutcome,
  retries: number,
  check?: FailureCause,
): Transition {
  if (outcome !== 'down')
    return settle(state, { status: outcome, failures: 0, firstFailure: null });
  const failures = state.failures + 1;
  const firstFailure = (state.failures > 0 ? state.firstFailure : null) ?? check ?? null;
  if (state.status !== 'down' && failures <= retries) {
    return {
      next: { status: state.status, failures, firstFailure },
      flip: null,
      nextCheck: failures === retries ? 'confirm' : 'retry',
    };
  }
  return settle(state, { status: 'down', failures, firstFailure });
}

function settle(prev: MonitorState, next: MonitorState): Transition {
  const flipped = next.status !== prev.status && confirmed.has(next.status);
  return {
    next,
    flip: flipped ? { from: prev.status, to: next.status } : null,
    nextCheck: 'interval',
  };
}

/**
 * Status shown to people (SPEC §4): paused, then an active maintenance window, override
 * whatever the checks said. The checks' status keeps being tracked underneath.
 */
export function displayStatus(
  state: MonitorState,
  paused: boolean,
  maintenance = false,
): MonitorStatus {
  return paused ? 'paused' : maintenance ? 'maintenance' : state.status;
}
