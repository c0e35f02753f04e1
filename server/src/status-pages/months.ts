import {
  calendarPeriods,
  localDate,
  midnight,
  type Availability,
  type Period,
} from '../domain/availability/index.js';
import { dayState } from './present.js';
import type { PublicMonth } from './view-model.js';

/** Months a page's monthly row shows, the current one last. */
export const MONTHS = 12;

/**
 * The last 12 calendar months in the page's zone, the current one last (it ends ahead: the one
 * computation counts it to now). These are the months a report of the same zone cuts (ADR 66).
 */
export function lastMonths(now: number, zone: string): Period[] {
  const [y, m] = localDate(now, zone);
  const range = { start: midnight(y, m - (MONTHS - 1), 1, zone), end: midnight(y, m + 1, 1, zone) };
  return calendarPeriods(range, 'month', zone);
}

/** A month's figure and colour: coloured as a day bar is, from the counted checks. */
export function presentMonths(
  periods: readonly Period[],
  figures: readonly (Availability | undefined)[],
): PublicMonth[] {
  return periods.map((p, i) => {
    const a = figures[i];
    const state = a ? dayState(a, false) : 'none';
    return {
      month: p.label,
      uptime: a?.uptime ?? null,
      // Months have no maintenance colour: maintenance is left out of their figure.
      state: state === 'maintenance' ? 'none' : state,
    };
  });
}
