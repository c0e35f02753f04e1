import { instantOfWallClock, wallClockAt, type SloWindow } from '@pagewatch/contract';

const DAY = 86_400_000;
const rollingDays: Partial<Record<SloWindow, number>> = { '7d': 7, '28d': 28, '30d': 30 };

/** The window an SLO is judged over: [start, end), measured up to `now`. */
export interface SloRange {
  start: number;
  /** A calendar window's end (the next month or quarter); a rolling window's is now. */
  end: number;
  /** How long the whole window is: the budget is a share of it. */
  lengthMs: number;
}

/**
 * The window holding `now`. Calendar windows begin at 00:00 on the 1st in `zone`, so a month
 * with a DST change is an hour shorter or longer than its days; rolling windows are the last
 * N × 24 h.
 */
export function sloRange(window: SloWindow, zone: string, now: number): SloRange {
  const days = rollingDays[window];
  if (days !== undefined) return { start: now - days * DAY, end: now, lengthMs: days * DAY };
  const wall = wallClockAt(now, zone);
  const months = window === 'quarter' ? 3 : 1;
  const first = Math.floor((wall.month - 1) / months) * months; // 0-based month
  const start = instantOfWallClock(Date.UTC(wall.year, first, 1), zone);
  const end = instantOfWallClock(Date.UTC(wall.year, first + months, 1), zone);
  return { start, end, lengthMs: end - start };
}
