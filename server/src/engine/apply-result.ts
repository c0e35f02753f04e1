import type { CheckRun } from '../domain/check-run.js';
import { pushRecent, type MonitorRecord } from '../domain/monitor.js';
import { applyOutcome, type Transition } from '../domain/monitor-state.js';
import type { RoundKey } from '../domain/schedule.js';
import type { ResultWrite } from '../db/repositories/results.js';

export interface Applied {
  write: ResultWrite;
  transition: Transition;
}

/**
 * Moves the monitor held in memory to the state a result leads to (status, recent sparkline,
 * last check) and returns what the writer records for it: one rule for checks and pings.
 * `failureDetails` keeps the failure's time, code and message for an incident's cause.
 */
export function applyResult(
  m: MonitorRecord,
  run: CheckRun,
  at: number,
  round: RoundKey,
  options: { maintenance: boolean; failureDetails: boolean },
): Applied {
  // An unknown result (Pagewatch offline, ADR 41) is recorded but moves nothing: status and
  // streak stay, and the write is treated like one in maintenance (no alert, no incident).
  const unknown = run.errorCode === 'connectivity_unknown';
  const transition: Transition = unknown
    ? { next: m.state, flip: null, nextCheck: 'interval' }
    : options.failureDetails
      ? applyOutcome(m.state, run.outcome, m.retries, {
          at,
          code: run.errorCode,
          message: run.errorMessage,
        })
      : applyOutcome(m.state, run.outcome, m.retries);
  m.state = transition.next;
  m.recent = pushRecent(m.recent, [run.outcome, run.latencyMs]);
  m.lastCheck = {
    at,
    outcome: run.outcome,
    latencyMs: run.latencyMs,
    httpStatus: run.httpStatus,
    errorCode: run.errorCode,
    errorMessage: run.errorMessage,
  };
  const write: ResultWrite = {
    round,
    monitorId: m.id,
    at,
    run,
    status: transition.next.status,
    failures: transition.next.failures,
    recent: m.recent,
    flip: transition.flip,
    maintenance: options.maintenance || unknown,
    ...(options.failureDetails ? { firstFailure: transition.next.firstFailure ?? null } : {}),
  };
  return { write, transition };
}
