import type {
  AlertEvent,
  AlertEventKind,
  AlertRules,
  CheckErrorCode,
  CheckOutcome,
  MonitorStatus,
} from '@pagewatch/contract';
import { failurePhase } from './phase.js';
import { isBad, type AlertState } from './state.js';

const DAY_MS = 86_400_000;
/** SPEC §9: certificate warnings 14, 7 and 1 days before expiry. */
export const certificateThresholdsDays = [14, 7, 1] as const;

/** What one result write tells alerting (all of it already known to the writer). */
export interface AlertFacts {
  at: number;
  /** The monitor as events name it; called only when an event goes out. */
  monitor: () => NonNullable<AlertEvent['monitor']>;
  /** Confirmed status after this check. */
  status: MonitorStatus;
  flip: { from: MonitorStatus; to: MonitorStatus } | null;
  outcome: CheckOutcome;
  /** Consecutive failed checks, and the retries that precede a DOWN. */
  failures: number;
  retries: number;
  errorCode: CheckErrorCode | null;
  errorMessage: string | null;
  /** The streak's first failure, when the scheduler still knows it. */
  firstFailureAt: number | null;
  certExpiresAt: number | null;
  /** Checked inside an active maintenance window (SPEC §4: raises nothing). */
  maintenance: boolean;
  /**
   * A parent that is down (ADR 41): a bad status is then not announced (nor reminded of);
   * recovery is never held. The writer looks it up only when a first decision would announce.
   */
  heldBy?: { id: number; name: string } | null;
}

/** Events that announce a bad status: the ones a down parent holds back (ADR 41). */
export const announcingKinds: ReadonlySet<AlertEventKind> = new Set([
  'monitor.down',
  'heartbeat.missed',
  'monitor.degraded',
  'monitor.regional',
  'monitor.still_down',
]);

export interface AlertDecision {
  events: AlertEvent[];
  state: AlertState;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Decides what a result means for the people being alerted: down after `afterChecks`
 * confirmed-down checks, still-down reminders, recovery, degraded, flapping and settled, and
 * certificate expiry warnings. Pure: the writer stores the state and enqueues the events.
 */
export function decideAlerts(input: {
  rules: AlertRules;
  state: AlertState;
  facts: AlertFacts;
}): AlertDecision {
  const { rules, facts: f } = input;
  const s: AlertState = { ...input.state };
  s.streakStart = f.outcome === 'down' ? (f.firstFailureAt ?? s.streakStart ?? f.at) : null;
  if (f.maintenance) return { events: [], state: s };

  const event = eventMaker(f);
  const events: AlertEvent[] = [];
  const certificate = certificateWarning(s, f);
  if (certificate) {
    s.certificate = certificate.state;
    events.push({ ...event('certificate.expiring'), certificate: certificate.event });
  }

  const windowMs = rules.flapWindowS * 1000;
  const recent = s.flips.filter((t) => t > f.at - windowMs);
  if (f.flip && f.flip.from !== 'pending') s.flips = [...recent, f.at];
  if (s.flapping) {
    if (recent.length > 0 || f.flip) return { events, state: s };
    s.flapping = false;
    s.flips = [];
    events.push({ ...event('monitor.settled'), cause: f.status === 'down' ? cause(f, s) : null });
    rebaseline(s, f);
    return { events, state: s };
  }
  if (s.flips.length > rules.flapThreshold) {
    s.flapping = true;
    events.push(event('monitor.flapping'));
    return { events, state: s };
  }
  events.push(...statusAlerts(rules, s, f, event));
  return { events, state: s };
}

function statusAlerts(
  rules: AlertRules,
  s: AlertState,
  f: AlertFacts,
  event: (kind: AlertEventKind) => AlertEvent,
): AlertEvent[] {
  if (f.heldBy && isBad(f.status)) return [];
  if (f.status === 'down') {
    const downChecks = confirmedDown(f);
    if (s.announced !== 'down') {
      if (downChecks < rules.afterChecks) return [];
      const kind =
        f.errorCode === 'heartbeat_missed' && f.monitor().type === 'push'
          ? 'heartbeat.missed'
          : 'monitor.down';
      const previous = s.announced ?? f.flip?.from ?? null;
      s.announced = 'down';
      s.outageStart ??= s.streakStart ?? f.at;
      s.announcedAtCheck = downChecks;
      s.reminders = 0;
      return [{ ...event(kind), previousStatus: previous, cause: cause(f, s), downChecks }];
    }
    const every = rules.renotifyEveryChecks;
    if (every === null) return [];
    const gap = reminderGap(every, rules.renotifyBackoff, s.reminders ?? 0);
    if (downChecks - s.announcedAtCheck < gap) return [];
    s.announcedAtCheck = downChecks;
    s.reminders = (s.reminders ?? 0) + 1;
    return [{ ...event('monitor.still_down'), cause: cause(f, s), downChecks }];
  }
  if (f.status === 'degraded' && s.announced !== 'degraded') {
    if (rules.notifyDegraded) {
      const previous = s.announced ?? f.flip?.from ?? null;
      if (s.announced === null) s.outageStart = f.at;
      s.announced = 'degraded';
      return [{ ...event('monitor.degraded'), previousStatus: previous, cause: cause(f, s) }];
    }
    return s.announced === 'down' || s.announced === 'regional' ? recover(rules, s, f, event) : [];
  }
  if (f.status === 'regional' && s.announced !== 'regional' && rules.notifyRegional) {
    // Its cause names the failing locations (ADR 58); leaving it is a `monitor.up` or a DOWN.
    const previous = s.announced ?? f.flip?.from ?? null;
    if (s.announced === null) s.outageStart = f.at;
    s.announced = 'regional';
    s.reminders = 0;
    return [{ ...event('monitor.regional'), previousStatus: previous, cause: cause(f, s) }];
  }
  if (f.status === 'up' && s.announced !== null) return recover(rules, s, f, event);
  return [];
}

/**
 * Checks between the previous alert and reminder number `sent + 1` (issue 18 item 9): `fixed`
 * every N, `linear` N, 2N, 3N…, `exponential` N, 2N, 4N… (capped so it stays a number).
 */
export function reminderGap(
  every: number,
  backoff: AlertRules['renotifyBackoff'],
  sent: number,
): number {
  if (backoff === 'linear') return every * (sent + 1);
  if (backoff === 'exponential') return every * 2 ** Math.min(sent, 30);
  return every;
}

/** Back to delivering after an announced outage: one `monitor.up` with how long it lasted. */
function recover(
  rules: AlertRules,
  s: AlertState,
  f: AlertFacts,
  event: (kind: AlertEventKind) => AlertEvent,
): AlertEvent[] {
  const previous = s.announced;
  const outageMs = s.outageStart === null ? null : Math.max(0, f.at - s.outageStart);
  s.announced = null;
  s.outageStart = null;
  s.announcedAtCheck = 0;
  s.reminders = 0;
  if (!rules.notifyRecovery) return [];
  return [{ ...event('monitor.up'), previousStatus: previous, outageMs }];
}

/** After flapping, `monitor.settled` told people the status: later alerts start from it. */
function rebaseline(s: AlertState, f: AlertFacts): void {
  s.announced = isBad(f.status) ? f.status : null;
  s.outageStart = s.announced === null ? null : (s.streakStart ?? f.at);
  s.announcedAtCheck = f.status === 'down' ? confirmedDown(f) : 0;
  s.reminders = 0;
}

/** Confirmed-down checks: the failures beyond the retries (1 at the DOWN itself). */
const confirmedDown = (f: AlertFacts) => Math.max(1, f.failures - f.retries);

function cause(f: AlertFacts, s: AlertState): AlertEvent['cause'] {
  const since = f.status === 'down' ? (s.streakStart ?? f.at) : f.at;
  return {
    code: f.errorCode,
    message: f.errorMessage,
    phase: failurePhase(f.errorCode),
    since: iso(since),
  };
}

function eventMaker(f: AlertFacts) {
  return (kind: AlertEventKind): AlertEvent => ({
    kind,
    at: iso(f.at),
    monitor: f.monitor(),
    status: f.status,
    previousStatus: null,
    cause: null,
    outageMs: null,
    downChecks: null,
    certificate: null,
    incident: null,
  });
}

/** A warning when the certificate crossed a threshold not yet warned for this expiry date. */
function certificateWarning(s: AlertState, f: AlertFacts) {
  const expiresAt = f.certExpiresAt;
  if (expiresAt === null || expiresAt <= f.at) return null;
  const warned = s.certificate?.expiresAt === expiresAt ? s.certificate.warned : [];
  const left = expiresAt - f.at;
  const due = certificateThresholdsDays.filter((d) => left <= d * DAY_MS);
  if (due.every((d) => warned.includes(d))) return null;
  return {
    state: { expiresAt, warned: [...new Set([...warned, ...due])].sort((a, b) => b - a) },
    event: { expiresAt: iso(expiresAt), daysLeft: Math.floor(left / DAY_MS) },
  };
}
