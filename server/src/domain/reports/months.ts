import { wallClockAt } from '@pagewatch/contract';
import { midnight } from '../availability/index.js';

/** Calendar months as `YYYY-MM` in a time zone: what monthly report emails count in. */

const pad = (n: number) => String(n).padStart(2, '0');
const parts = (month: string): [number, number] => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return [y, m - 1];
};

/** The month that instant `t` falls in, in `zone`. */
export function monthAt(t: number, zone: string): string {
  const w = wallClockAt(t, zone);
  return `${w.year}-${pad(w.month)}`;
}

/** The month `n` months after `month` (negative: before). */
export function addMonths(month: string, n: number): string {
  const [y, m] = parts(month);
  const total = y * 12 + m + n;
  return `${Math.floor(total / 12)}-${pad((total % 12) + 1)}`;
}

/** When a month's report is sent: its end, midnight of day 1 of the next month in `zone`. */
export function sendAtOf(month: string, zone: string): number {
  const [y, m] = parts(month);
  return midnight(y, m + 1, 1, zone);
}

/** At most this many missed months are caught up (a server off for a year sends a year). */
export const CATCH_UP_MONTHS = 12;

/**
 * The months after `queuedThrough` whose reports are due at `now`: every month that has ended,
 * oldest first, the last CATCH_UP_MONTHS of them at most.
 */
export function dueMonths(queuedThrough: string, now: number, zone: string): string[] {
  const last = addMonths(monthAt(now, zone), -1);
  const out: string[] = [];
  for (let m = addMonths(queuedThrough, 1); m <= last; m = addMonths(m, 1)) out.push(m);
  return out.slice(-CATCH_UP_MONTHS);
}
