import { instantOfWallClock, wallClockAt } from '@pagewatch/contract';

/**
 * Quiet hours (issue 18 item 5, ADR 39), pure. A window is weekdays and local times in a zone;
 * one that ends before it starts runs over midnight and belongs to the day it starts on. A
 * warning that falls in a window waits for its end; a critical alert never waits. Nothing is
 * ever dropped: the answer is always a time to send.
 */
export interface QuietWindow {
  /** 0 Sunday … 6 Saturday: the days the window starts on. */
  days: readonly number[];
  /** Local `HH:MM`. */
  from: string;
  to: string;
  timeZone: string;
}

const DAY_MS = 86_400_000;
const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

/** The end of the window occurrence containing `t`, or null when `t` is outside it. */
export function windowEndAt(w: QuietWindow, t: number): number | null {
  const c = wallClockAt(t, w.timeZone);
  const today = Date.UTC(c.year, c.month - 1, c.day);
  const weekday = new Date(today).getUTCDay();
  const minute = c.hour * 60 + c.minute;
  const from = minutesOf(w.from);
  const to = minutesOf(w.to);
  const end = (day: number) => instantOfWallClock(day + to * 60_000, w.timeZone);
  if (from < to) {
    return w.days.includes(weekday) && minute >= from && minute < to ? end(today) : null;
  }
  if (from === to) return null;
  // Over midnight: started today (ends tomorrow) or yesterday (ends today).
  if (minute >= from && w.days.includes(weekday)) return end(today + DAY_MS);
  if (minute < to && w.days.includes((weekday + 6) % 7)) return end(today);
  return null;
}

/** When quiet ends for `t`: after every window that covers it in a row (weekend then night). */
export function quietUntil(windows: readonly QuietWindow[], t: number): number | null {
  let at = t;
  let moved = false;
  // Chained windows end within a week; the bound keeps a misconfiguration from looping.
  for (let i = 0; i < 32; i += 1) {
    const ends = windows.map((w) => windowEndAt(w, at)).filter((e): e is number => e !== null);
    if (ends.length === 0) break;
    const next = Math.max(...ends);
    if (next <= at) break;
    at = next;
    moved = true;
  }
  return moved ? at : null;
}

/** When an alert goes out: critical at once, a warning at the end of quiet hours. */
export function sendTime(input: {
  severity: 'critical' | 'warning';
  at: number;
  windows: readonly QuietWindow[];
}): { sendAt: number; delayed: boolean } {
  if (input.severity === 'critical') return { sendAt: input.at, delayed: false };
  const until = quietUntil(input.windows, input.at);
  return until === null ? { sendAt: input.at, delayed: false } : { sendAt: until, delayed: true };
}
