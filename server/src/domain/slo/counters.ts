import type { SloTally } from './budget.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Minutes kept: the lookbacks of an hour or less are exact to the minute. */
export const MINUTE_SLOTS = 60;
/** Hours kept: the longest default lookback (3 days). */
export const HOUR_SLOTS = 72;

/** Checks of a bucket by outcome, maintenance already left out. */
export interface BucketCounts {
  checks: number;
  degraded: number;
  down: number;
}

/**
 * One monitor's recent checks in fixed rings (ADR 53): 60 minutes and 72 hours, about 1.8 KB,
 * so 10,000 monitors' burn rates are kept in memory and updated a minute at a time rather
 * than re-read. Each slot remembers which bucket it holds, so a stale slot never counts.
 */
export class MonitorCounters {
  private readonly minuteAt = new Int32Array(MINUTE_SLOTS).fill(-1);
  private readonly minutes = new Uint16Array(MINUTE_SLOTS * 3);
  private readonly hourAt = new Int32Array(HOUR_SLOTS).fill(-1);
  private readonly hours = new Uint32Array(HOUR_SLOTS * 3);
  /** The latest hour a minute was set in: its minutes fold into an hour slot once it ends. */
  private openHour = -1;

  /**
   * Sets a closed minute's counts (a re-read replaces, never adds twice). The first minute of
   * a new hour folds the previous hour's minutes into its slot before it takes one of them.
   */
  setMinute(bucket: number, c: BucketCounts): void {
    const n = Math.floor(bucket / MINUTE);
    const h = Math.floor(bucket / HOUR);
    if (h > this.openHour) {
      if (this.openHour >= 0 && this.hourAt[this.openHour % HOUR_SLOTS] !== this.openHour)
        this.closeHour(this.openHour * HOUR);
      this.openHour = h;
    }
    const i = n % MINUTE_SLOTS;
    this.minuteAt[i] = n;
    this.minutes[i * 3] = Math.min(c.checks, 0xffff);
    this.minutes[i * 3 + 1] = Math.min(c.degraded, 0xffff);
    this.minutes[i * 3 + 2] = Math.min(c.down, 0xffff);
  }

  /** Sets a closed hour's counts (read back from the hourly rollup). */
  setHour(bucket: number, c: BucketCounts): void {
    const n = Math.floor(bucket / HOUR);
    const i = n % HOUR_SLOTS;
    this.hourAt[i] = n;
    this.hours[i * 3] = c.checks;
    this.hours[i * 3 + 1] = c.degraded;
    this.hours[i * 3 + 2] = c.down;
  }

  /** Folds the minutes of `hourBucket` into its hour slot, once all of them are in. */
  closeHour(hourBucket: number): void {
    const first = Math.floor(hourBucket / MINUTE);
    const sum = { checks: 0, degraded: 0, down: 0 };
    for (let n = first; n < first + 60; n += 1) this.addMinute(sum, n);
    this.setHour(hourBucket, sum);
  }

  private addMinute(into: BucketCounts, n: number): void {
    const i = n % MINUTE_SLOTS;
    if (this.minuteAt[i] !== n) return;
    into.checks += this.minutes[i * 3]!;
    into.degraded += this.minutes[i * 3 + 1]!;
    into.down += this.minutes[i * 3 + 2]!;
  }

  private addHour(into: BucketCounts, n: number): void {
    const i = n % HOUR_SLOTS;
    if (this.hourAt[i] !== n) return;
    into.checks += this.hours[i * 3]!;
    into.degraded += this.hours[i * 3 + 1]!;
    into.down += this.hours[i * 3 + 2]!;
  }

  /**
   * Checks in the `lookbackMs` before `closedTo` (a minute boundary: the first minute not yet
   * closed). Up to an hour it sums minutes; longer lookbacks sum the current hour's closed
   * minutes and the whole hours before it, so a 6 h lookback covers 5–6 h (ADR 53).
   */
  counts(lookbackMs: number, closedTo: number): BucketCounts {
    const sum = { checks: 0, degraded: 0, down: 0 };
    const end = Math.floor(closedTo / MINUTE);
    if (lookbackMs <= HOUR) {
      for (let n = end - Math.round(lookbackMs / MINUTE); n < end; n += 1) this.addMinute(sum, n);
      return sum;
    }
    const hourStart = Math.floor(closedTo / HOUR) * HOUR;
    for (let n = Math.floor(hourStart / MINUTE); n < end; n += 1) this.addMinute(sum, n);
    const h = hourStart / HOUR;
    for (let n = h - Math.round(lookbackMs / HOUR) + 1; n < h; n += 1) this.addHour(sum, n);
    return sum;
  }
}

/** Counts as an SLO tallies them: degraded checks are bad only when it says so. */
export function tallyOf(c: BucketCounts, countDegraded: boolean): SloTally {
  return { checks: c.checks, bad: c.down + (countDegraded ? c.degraded : 0) };
}

/** Sums several monitors' counts (a tag's SLO). */
export function sumCounts(list: Iterable<BucketCounts>): BucketCounts {
  const sum = { checks: 0, degraded: 0, down: 0 };
  for (const c of list) {
    sum.checks += c.checks;
    sum.degraded += c.degraded;
    sum.down += c.down;
  }
  return sum;
}
