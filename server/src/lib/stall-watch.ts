import type { Clock } from './clock.js';

export interface StallWatchOptions {
  /** How often the watch expects to run, ms. */
  tickMs?: number;
  /** A tick this much later than planned counts as a stall, ms. */
  thresholdMs?: number;
  /** Stalls remembered; older ones are forgotten. */
  keep?: number;
}

/**
 * Notices when this process could not run on time: a tick that fires late means the event
 * loop was blocked or the machine starved us of CPU. A check that timed out while the
 * process was stalled says nothing about its target — its timer simply could not fire — so
 * the scheduler asks this watch before blaming the target.
 */
export class StallWatch {
  private readonly tickMs: number;
  private readonly thresholdMs: number;
  private readonly keep: number;
  /** [start, end] of recent stalls, oldest first. */
  private readonly stalls: [number, number][] = [];
  private timer: NodeJS.Timeout | null = null;
  private last = 0;
  private total = 0;

  constructor(
    private readonly clock: Clock,
    options: StallWatchOptions = {},
  ) {
    this.tickMs = options.tickMs ?? 100;
    this.thresholdMs = options.thresholdMs ?? 250;
    this.keep = options.keep ?? 256;
  }

  start(): void {
    if (this.timer) return;
    this.last = this.clock.now();
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stalls seen since start. */
  get count(): number {
    return this.total;
  }

  /** Records a stall directly; the tick calls it, and tests use it to replay one. */
  note(start: number, end: number): void {
    this.total += 1;
    this.stalls.push([start, end]);
    if (this.stalls.length > this.keep) this.stalls.shift();
  }

  /** Milliseconds of stall overlapping [from, to]. */
  stalledWithin(from: number, to: number): number {
    let sum = 0;
    // Newest first: stalls are in time order, so the first that ended before `from` ends the
    // search (every check asks, a thousand times a second at 100,000 monitors).
    for (let i = this.stalls.length - 1; i >= 0; i--) {
      const [a, b] = this.stalls[i]!;
      if (b <= from) break;
      const overlap = Math.min(b, to) - Math.max(a, from);
      if (overlap > 0) sum += overlap;
    }
    return sum;
  }

  private tick(): void {
    const now = this.clock.now();
    const late = now - this.last - this.tickMs;
    // The stall is the part of the gap beyond the planned tick.
    if (late >= this.thresholdMs) this.note(this.last + this.tickMs, now);
    this.last = now;
  }
}
