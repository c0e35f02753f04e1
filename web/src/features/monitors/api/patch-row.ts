import type { CheckResult, MonitorRow, ServerEvent } from '@pagewatch/contract';
import { appendRecent } from '@pagewatch/contract';

export type ResultEvent = Extract<ServerEvent, { kind: 'result' }>;
export type StatusEvent = Extract<ServerEvent, { kind: 'status' }>;

const RECENT_MIN = 30;

export function lastCheckOf(result: CheckResult): MonitorRow['lastCheck'] {
  const { at, outcome, latencyMs, httpStatus, errorCode, errorMessage } = result;
  return { at, outcome, latencyMs, httpStatus, errorCode, errorMessage };
}

/** A dashboard row (full summary or compact) after a check's result. */
export function applyResult<T extends MonitorRow>(item: T, event: ResultEvent): T {
  const { result } = event;
  // Replays after a reconnect can repeat results we already have.
  if (item.lastCheck && Date.parse(item.lastCheck.at) >= Date.parse(result.at)) {
    return item.status === event.status ? item : { ...item, status: event.status };
  }
  const cap = Math.max(item.recent.outcomes.length, RECENT_MIN);
  return {
    ...item,
    status: event.status,
    lastCheck: lastCheckOf(result),
    recent: appendRecent(item.recent, result.outcome, result.latencyMs, cap),
  };
}

export function applyStatus<T extends MonitorRow>(item: T, event: StatusEvent): T {
  return { ...item, status: event.to, statusChangedAt: event.at };
}

/** A row after a monitor's batch of result and status events, oldest first. */
export function applyRowEvents<T extends MonitorRow>(item: T, events: readonly ServerEvent[]): T {
  return events.reduce(
    (acc, e) =>
      e.kind === 'result' ? applyResult(acc, e) : e.kind === 'status' ? applyStatus(acc, e) : acc,
    item,
  );
}
