/** Pure timing rules of the scheduler, kept apart so they can be tested without timers. */

const SPREAD_CAP_MS = 60_000;

/** Stable per-monitor offset so restarts spread checks the same way every time. */
export function phaseOffset(monitorId: number, intervalMs: number): number {
  // Knuth's multiplicative hash spreads consecutive ids across the range.
  const h = Math.imul(monitorId, 2654435761) >>> 0;
  return h % Math.min(intervalMs, SPREAD_CAP_MS);
}

/**
 * When a monitor loaded at start-up is first due: when its interval since the last
 * check runs out, but never earlier than its spread offset from now, so a thousand
 * overdue monitors don't all fire in the first millisecond.
 */
export function firstDue(
  monitorId: number,
  intervalMs: number,
  lastCheckAt: number | null,
  now: number,
): number {
  const spread = now + phaseOffset(monitorId, intervalMs);
  if (lastCheckAt === null) return spread;
  const next = lastCheckAt + intervalMs;
  return next > now ? Math.min(next, now + intervalMs) : spread;
}

/**
 * Next due time after a check planned for `due`: planned from the schedule, not from
 * completion, so checks don't drift; if the machine fell behind, it resumes now.
 */
export function nextDue(due: number, delayMs: number, now: number): number {
  return Math.max(due + delayMs, now);
}

/**
 * Admits a few immediate first checks per second: a person who just created a monitor sees
 * it checked at once, while a burst (a script or an import creating a thousand) is spread
 * over each monitor's interval by its phase offset instead of firing together forever after.
 */
export class BurstSpreader {
  private readonly admitted: number[] = [];

  constructor(private readonly perSecond = 20) {}

  firstDue(monitorId: number, intervalMs: number, now: number): number {
    while (this.admitted.length > 0 && this.admitted[0]! <= now - 1000) this.admitted.shift();
    if (this.admitted.length < this.perSecond) {
      this.admitted.push(now);
      return now;
    }
    return now + phaseOffset(monitorId, intervalMs);
  }
}
