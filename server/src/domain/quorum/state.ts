import type { FailureCause } from '../incidents.js';
import { applyOutcome, type MonitorState, type Transition } from '../monitor-state.js';
import type { QuorumOutcome } from './verdict.js';

/**
 * Moves a monitor checked from several locations by its combined verdict (ADR 58). DOWN is
 * confirmed like a single location's: `retries + 1` rounds in a row whose verdict was down; a
 * round counts once however many of its locations report (`newRound` false: a further
 * location of a round already counted). REGIONAL and UNKNOWN are statuses of their own, each
 * change to or from them a flip; neither continues a streak of failures.
 */
export function applyQuorum(
  state: MonitorState,
  outcome: QuorumOutcome,
  retries: number,
  newRound: boolean,
  check?: FailureCause,
): Transition {
  if (outcome === 'regional' || outcome === 'unknown') {
    const flip = state.status !== outcome ? { from: state.status, to: outcome } : null;
    return {
      next: { status: outcome, failures: 0, firstFailure: null },
      flip,
      nextCheck: 'interval',
    };
  }
  if (outcome === 'down' && !newRound && state.failures > 0) {
    // This round's failure is counted already; a DOWN it confirmed stays.
    return { next: state, flip: null, nextCheck: 'interval' };
  }
  // A streak may begin in a REGIONAL or UNKNOWN round: that status holds until confirmed.
  return { ...applyOutcome(state, outcome, retries, check), nextCheck: 'interval' };
}
