import {
  instantOfWallClock,
  maintenanceLimits,
  parseLocal,
  type MaintenanceSchedule,
  type MaintenanceState,
} from '@pagewatch/contract';
import { parseRule, type FloatingRule } from './rules.js';

/** When a window happens: its zone and schedule (what the preview sends, and part of a window). */
export interface WindowTiming {
  timezone: string;
  schedule: MaintenanceSchedule;
}

/** One occurrence, epoch ms, end exclusive. */
export interface Interval {
  start: number;
  end: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Wall clocks are at most 14 h from UTC: a floating range this much wider holds every instant. */
const ZONE_SLACK = 15 * HOUR;
/** Bounds one expansion (a minutely rule over a week is ~10,000). */
const MAX_STEPS = 50_000;

/**
 * A window's schedule made ready to expand. Recurring occurrences start when the wall clock in
 * the window's zone shows the rule's time (gap: first instant after it; overlap: the first of
 * the two, see zoned-time.ts) and last `durationMinutes` of real time, so a 02:30 window on a
 * fall-back night still lasts its full hour.
 */
export class Timeline {
  private readonly rule: FloatingRule | null;
  private readonly durationMs: number;
  private readonly until: number;
  private readonly once: Interval | null;

  constructor(private readonly timing: WindowTiming) {
    const s = timing.schedule;
    if (s.kind === 'once') {
      this.once = { start: Date.parse(s.startsAt), end: Date.parse(s.endsAt) };
      this.rule = null;
      this.durationMs = this.once.end - this.once.start;
      this.until = Infinity;
      return;
    }
    this.once = null;
    this.durationMs = s.durationMinutes * MINUTE;
    const from = parseLocal(s.from) ?? 0;
    this.until = s.until === null ? Infinity : (parseLocal(s.until) ?? Infinity);
    const parsed = parseRule(s.kind, s.expression, from);
    // Stored windows were validated; one that no longer parses (a library change) never occurs.
    this.rule = parsed.ok ? parsed.rule : null;
  }

  /** Occurrences that overlap [from, to), by start. */
  between(from: number, to: number): Interval[] {
    if (this.once) return this.once.end > from && this.once.start < to ? [this.once] : [];
    const out: Interval[] = [];
    for (const o of this.walk(from - this.durationMs)) {
      if (o.start >= to) {
        // Floating order can differ from real order only inside one offset change.
        if (o.start >= to + ZONE_SLACK) break;
        continue;
      }
      if (o.end > from) out.push(o);
    }
    return out.sort((a, b) => a.start - b.start);
  }

  /** The first `count` occurrences that have not ended at `now`, the running ones first. */
  upcoming(now: number, count: number): Interval[] {
    if (this.once) return this.once.end > now ? [this.once] : [];
    const out: Interval[] = [];
    for (const o of this.walk(now - this.durationMs)) {
      if (o.end <= now) continue;
      out.push(o);
      if (out.length >= count) break;
    }
    return out;
  }

  activeAt(t: number): boolean {
    return this.between(t, t + 1).length > 0;
  }

  /** The end of the running occurrence, following overlapping or touching ones; null if none. */
  activeUntil(t: number): number | null {
    let end: number | null = null;
    let probe = t;
    for (let i = 0; i < 1000; i++) {
      const next = this.between(probe, probe + 1).reduce<number | null>(
        (e, o) => (e === null || o.end > e ? o.end : e),
        null,
      );
      if (next === null || (end !== null && next <= end)) break;
      end = next;
      probe = next;
    }
    return end;
  }

  state(now: number, cancelled: boolean): MaintenanceState {
    if (cancelled) return 'cancelled';
    if (this.activeAt(now)) return 'active';
    return this.upcoming(now, 1).length > 0 ? 'scheduled' : 'ended';
  }

  /**
   * Occurrences from the rule, in floating order, starting no earlier than real time `after`
   * (roughly: the floating range is widened by the zone slack and filtered by the caller).
   */
  private *walk(after: number): Generator<Interval> {
    if (!this.rule) return;
    let last = -Infinity;
    let steps = 0;
    for (const floating of this.rule.startsFrom(after - ZONE_SLACK)) {
      if (floating > this.until || ++steps > MAX_STEPS) return;
      const start = instantOfWallClock(floating, this.timing.timezone);
      // Two readings inside one spring-forward gap land on the same instant: one occurrence.
      if (start === last) continue;
      last = start;
      yield { start, end: start + this.durationMs };
    }
  }
}

/** Occurrences of a window overlapping [from, to). */
export function occurrences(timing: WindowTiming, from: number, to: number): Interval[] {
  return new Timeline(timing).between(from, to);
}

export function activeAt(timing: WindowTiming, t: number): boolean {
  return new Timeline(timing).activeAt(t);
}

export const UPCOMING = maintenanceLimits.upcoming;
