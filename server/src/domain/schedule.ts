/**
 * Pure timing rules of the scheduler, kept apart so they can be tested without timers.
 *
 * Every monitor has rounds: round r is due at `phase + r × interval` ms after the Unix epoch,
 * with a phase derived from the monitor's id. Any process numbers a slot the same way, so a
 * result is identified by (monitor, round) and a restart or a takeover resumes the same plan.
 */

/** A restart's catch-up of rounds that passed without a result is spread over at most this. */
const SPREAD_CAP_MS = 60_000;
/** A takeover's catch-up (another process died holding the partition) is spread over this. */
export const TAKEOVER_SPREAD_MS = 1_000;

/** Knuth's multiplicative hash: consecutive ids land far apart. */
function hash(monitorId: number): number {
  return Math.imul(monitorId, 2654435761) >>> 0;
}

/** The monitor's phase in [0, interval): monitors spread over the whole interval. */
export function phaseOf(monitorId: number, intervalMs: number): number {
  return hash(monitorId) % Math.max(1, Math.floor(intervalMs));
}

/** The round whose slot `t` is in: the last round due at or before `t`. */
export function roundAt(monitorId: number, intervalMs: number, t: number): number {
  const i = Math.max(1, Math.floor(intervalMs));
  return Math.floor((t - phaseOf(monitorId, i)) / i);
}

/** When round `round` is due (epoch ms). `roundAt(id, i, dueOf(id, i, r)) === r`. */
export function dueOf(monitorId: number, intervalMs: number, round: number): number {
  const i = Math.max(1, Math.floor(intervalMs));
  return phaseOf(monitorId, i) + round * i;
}

/** Stable per-monitor offset within the spread cap, for catch-ups and bursts. */
export function phaseOffset(monitorId: number, intervalMs: number, cap = SPREAD_CAP_MS): number {
  return hash(monitorId) % Math.max(1, Math.min(intervalMs, cap));
}

/** A planned check: the round it is and when it is due. */
export interface Slot {
  round: number;
  due: number;
}

/**
 * Where a monitor loaded at start-up resumes. If the current round already has a result, at
 * the next round. Otherwise the current round runs once, spread by the monitor's offset so a
 * thousand monitors don't fire together — unless the next round comes first. Never older
 * rounds: a machine that was down does not run a backlog.
 */
export function resumeSlot(
  monitorId: number,
  intervalMs: number,
  lastRoundDue: number | null,
  now: number,
  spreadMs = SPREAD_CAP_MS,
): Slot {
  const current = roundAt(monitorId, intervalMs, now);
  const next: Slot = { round: current + 1, due: dueOf(monitorId, intervalMs, current + 1) };
  if (lastRoundDue !== null && lastRoundDue >= dueOf(monitorId, intervalMs, current)) return next;
  const catchUp = now + phaseOffset(monitorId, intervalMs, spreadMs);
  return catchUp < next.due ? { round: current, due: catchUp } : next;
}

/**
 * Where a monitor resumes when this process takes its partition over: like a restart, but the
 * current round (if it passed without a result) runs soon, since its previous owner is gone
 * and the round is already late. Never older rounds. `spreadMs` (at least a second) spreads
 * a large takeover's late checks; see `takeoverSpreadMs`.
 */
export function takeoverSlot(
  monitorId: number,
  intervalMs: number,
  lastRoundDue: number | null,
  now: number,
  spreadMs = TAKEOVER_SPREAD_MS,
): Slot {
  return resumeSlot(
    monitorId,
    intervalMs,
    lastRoundDue,
    now,
    Math.max(TAKEOVER_SPREAD_MS, spreadMs),
  );
}

/** Whether the monitor's current round passed without a result (a takeover runs it). */
export function roundPassedUnchecked(
  monitorId: number,
  intervalMs: number,
  lastRoundDue: number | null,
  now: number,
): boolean {
  const due = dueOf(monitorId, intervalMs, roundAt(monitorId, intervalMs, now));
  return due < now && (lastRoundDue === null || lastRoundDue < due);
}

/**
 * The pace at which a takeover starts late checks at the least (a second's worth runs within
 * the second, as for a small takeover); a process whose own schedule runs faster keeps that.
 */
const TAKEOVER_MIN_RATE = 1_000;

/**
 * How widely a takeover spreads the late checks of monitors with this interval: within a
 * second when few are late; when many are, at the pace of the process's own schedule (the
 * `total` monitors it will run, per interval), or 1,000 a second if that is faster. A process
 * that takes 25,000 late monitors at once (a machine's whole share at start, a dead node's at
 * 100,000) would otherwise start them all within one second, and that burst starved its own
 * lease renewals into fencing. Never past the interval.
 */
export function takeoverSpreadMs(intervalMs: number, late: number, total: number): number {
  const perSecond = Math.max(TAKEOVER_MIN_RATE, (total * 1000) / Math.max(1, intervalMs));
  const spread = (late / perSecond) * 1000;
  return Math.max(TAKEOVER_SPREAD_MS, Math.min(intervalMs, spread));
}

/**
 * The next planned round after round `round` was checked: the round after it, or the current
 * round if the machine fell behind (it starts late, once; skipped rounds are not replayed).
 * Planned from the schedule, not from completion, so checks don't drift.
 */
export function nextSlot(monitorId: number, intervalMs: number, round: number, now: number): Slot {
  const r = Math.max(round + 1, roundAt(monitorId, intervalMs, now));
  return { round: r, due: dueOf(monitorId, intervalMs, r) };
}

/** A result's place in the order of a monitor's results: its round's due time and attempt. */
export interface RoundKey {
  round: number;
  /** When the round was due: compared instead of the number, which changes with the interval. */
  roundDue: number;
  /** 0 for the round's planned check; retries, the confirming re-check and check-now count up. */
  attempt: number;
}

/**
 * The key of a result of a check belonging to `round`, after the monitor's last recorded key:
 * the first result of a round is attempt 0, each further one in that round the next attempt.
 * A round due before the last one (the interval was just edited) continues the last key, so
 * keys only grow and the result-write guard never takes a fresh result for a duplicate.
 */
export function keyAfter(
  last: { roundDue: number; attempt: number } | null,
  monitorId: number,
  intervalMs: number,
  round: number,
): RoundKey {
  const roundDue = dueOf(monitorId, intervalMs, round);
  if (last === null || roundDue > last.roundDue) return { round, roundDue, attempt: 0 };
  return { round, roundDue: last.roundDue, attempt: last.attempt + 1 };
}

/**
 * Admits a few immediate first checks per second: a person who just created a monitor sees
 * it checked at once, while a burst (a script or an import creating a thousand) waits for
 * each monitor's next round instead of firing together.
 */
export class BurstSpreader {
  private readonly admitted: number[] = [];

  constructor(private readonly perSecond = 20) {}

  firstSlot(monitorId: number, intervalMs: number, now: number): Slot {
    while (this.admitted.length > 0 && this.admitted[0]! <= now - 1000) this.admitted.shift();
    if (this.admitted.length < this.perSecond) {
      this.admitted.push(now);
      // An extra check in the current round, which is already under way.
      return { round: roundAt(monitorId, intervalMs, now), due: now };
    }
    return resumeSlot(monitorId, intervalMs, null, now);
  }
}
