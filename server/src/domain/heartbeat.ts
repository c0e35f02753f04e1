import { noPhases, type CheckRun } from './check-run.js';
import { settingsOf, type MonitorRecord } from './monitor.js';
import { nextRunAfter, scheduleOf } from './heartbeat-schedule.js';

/** Rules of push (heartbeat) monitors: when silence is a miss, and what a ping records. */

/** "5 min 30 s", "2 h", "1 d 3 h": the two largest units, for messages people read. */
export function formatDuration(ms: number): string {
  let s = Math.max(0, Math.round(ms / 1000));
  if (s === 0) return '0 s';
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(s / size);
    s -= n * size;
    if (n > 0) parts.push(`${n} ${unit}`);
    else if (parts.length > 0) break;
  }
  return parts.slice(0, 2).join(' ');
}

const isMiss = (m: MonitorRecord): boolean => m.lastCheck?.errorCode === 'heartbeat_missed';

/** When the last ping came: the stored one, or the last result when that was a ping. */
export function lastPingOf(m: MonitorRecord): number | null {
  const fromResult = m.lastCheck && !isMiss(m) ? m.lastCheck.at : null;
  if (m.lastPingAt == null) return fromResult;
  return fromResult === null ? m.lastPingAt : Math.max(m.lastPingAt, fromResult);
}

/** How early a scheduled job's ping may come and still count for the run it is about. */
const EARLY_PING_MS = 60_000;

/** Since when the monitor has waited for a ping: the last one, or its last change. */
const quietSinceOf = (m: MonitorRecord): number =>
  Math.max(m.updatedAt, lastPingOf(m) ?? -Infinity);

/**
 * When the next ping is expected after `since`: `interval` later, or the schedule's next run.
 * Null when a schedule never runs again.
 */
function expectedAfter(m: MonitorRecord, since: number): number | null {
  const settings = settingsOf(m, 'push');
  const schedule = scheduleOf(settings);
  if (schedule.kind === 'interval') return since + m.interval * 1000;
  // A ping a little before its run (the job's clock runs ahead) counts for that run, not the
  // one before: up to half the grace period early, at most a minute.
  const early = Math.min(EARLY_PING_MS, (settings.graceSeconds * 1000) / 2);
  return nextRunAfter(schedule, since + early);
}

/**
 * The earliest a push monitor's scheduled check may record a miss: the grace period after the
 * ping expected next — `interval` after the last ping, or the schedule's first run after it —
 * counted from the monitor's creation, change or resumption when that is later (its wait
 * starts over then). Null once a miss is on record since then: further misses follow the
 * scheduler's own pace (retry interval while confirming, then the interval), like any failing
 * check.
 */
export function heartbeatDueAt(m: MonitorRecord): number | null {
  if (isMiss(m) && m.lastCheck!.at >= m.updatedAt) return null;
  const expected = expectedAfter(m, quietSinceOf(m));
  return expected === null ? null : expected + settingsOf(m, 'push').graceSeconds * 1000;
}

/**
 * The next ping the monitor waits for, for its page: the one after the last ping, or — once
 * that one is overdue past its grace — the schedule's next run after `now`.
 */
export function nextPingExpectedAt(m: MonitorRecord, now: number): number | null {
  const expected = expectedAfter(m, quietSinceOf(m));
  if (expected === null) return null;
  const grace = settingsOf(m, 'push').graceSeconds * 1000;
  return expected + grace >= now ? expected : expectedAfter(m, now);
}

function expectation(m: MonitorRecord): string {
  const grace = settingsOf(m, 'push').graceSeconds;
  const schedule = scheduleOf(settingsOf(m, 'push'));
  const every =
    schedule.kind === 'interval'
      ? `expected every ${formatDuration(m.interval * 1000)}`
      : `expected on "${schedule.expression}" (${schedule.timezone})`;
  return grace > 0 ? `${every} + ${formatDuration(grace * 1000)} grace` : every;
}

/** What the scheduled check of a push monitor records: nothing came in time. */
export function missedHeartbeat(m: MonitorRecord, now: number): CheckRun {
  const last = lastPingOf(m);
  const silence =
    last === null
      ? `No ping received yet in ${formatDuration(now - m.createdAt)}`
      : `No ping for ${formatDuration(now - last)}`;
  return {
    outcome: 'down',
    latencyMs: null,
    phases: noPhases,
    httpStatus: null,
    errorCode: 'heartbeat_missed',
    errorMessage: `${silence}; ${expectation(m)}`,
    responseSize: null,
    certExpiresAt: null,
  };
}

export interface Ping {
  status: 'up' | 'down';
  /** What the job said (msg, or the start of a POST body); null when nothing. */
  message: string | null;
  /** How long the run took, ms; null when unknown. */
  durationMs: number | null;
}

/**
 * What a ping records. A reported failure is down with `push_reported_down`; a success
 * slower than the degraded threshold is degraded, like a slow response.
 */
export function pingRun(ping: Ping, degradedThresholdMs: number | null): CheckRun {
  const base = {
    latencyMs: ping.durationMs,
    phases: noPhases,
    httpStatus: null,
    responseSize: null,
    certExpiresAt: null,
  };
  if (ping.status === 'down') {
    return {
      ...base,
      outcome: 'down',
      errorCode: 'push_reported_down',
      errorMessage: ping.message ?? 'The job reported a failure',
    };
  }
  if (
    degradedThresholdMs !== null &&
    ping.durationMs !== null &&
    ping.durationMs > degradedThresholdMs
  ) {
    return {
      ...base,
      outcome: 'degraded',
      errorCode: 'degraded_latency',
      errorMessage:
        ping.message ??
        `The run took ${Math.round(ping.durationMs)} ms, above the ${degradedThresholdMs} ms threshold`,
    };
  }
  return { ...base, outcome: 'up', errorCode: null, errorMessage: ping.message };
}
