import type { CheckOutcome, MonitorStatus } from '@pagewatch/contract';

/** The part of a monitor's status that survives between checks. */
export interface MonitorState {
  status: MonitorStatus;
  /** Consecutive failed checks not yet confirmed as down (or since it went down). */
  failures: number;
}

export interface Transition {
  next: MonitorState;
  /** Set when a confirmed status (up/degraded/down) changed: this fires events. */
  flip: { from: MonitorStatus; to: MonitorStatus } | null;
  /** Whether the next check should come after the retry interval (failure being confirmed). */
  retrying: boolean;
}

export const initialState: MonitorState = { status: 'pending', failures: 0 };

const confirmed = new Set<MonitorStatus>(['up', 'degraded', 'down']);

/**
 * SPEC §4: a monitor goes down after `retries + 1` consecutive failures; one
 * delivered check brings it back to up or degraded. Failures not yet confirmed
 * keep the previous status (pending for a new monitor).
 */
export function applyOutcome(
  state: MonitorState,
  outcome: CheckOutcome,
  retries: number,
): Transition {
  if (outcome !== 'down') return settle(state, { status: outcome, failures: 0 });
  const failures = state.failures + 1;
  if (state.status !== 'down' && failures <= retries) {
    return { next: { status: state.status, failures }, flip: null, retrying: true };
  }
  return settle(state, { status: 'down', failures });
}

function settle(prev: MonitorState, next: MonitorState): Transition {
  const flipped = next.status !== prev.status && confirmed.has(next.status);
  return { next, flip: flipped ? { from: prev.status, to: next.status } : null, retrying: false };
}

/** Status shown to people: paused overrides whatever the checks said. */
export function displayStatus(state: MonitorState, paused: boolean): MonitorStatus {
  return paused ? 'paused' : state.status;
}
