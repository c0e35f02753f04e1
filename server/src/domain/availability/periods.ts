import { instantOfWallClock } from '@pagewatch/contract';
import { coarsestSpans, levelMs, type Span } from '../rollup.js';
import type { Interval } from './intervals.js';

export type PeriodKind = 'day' | 'month' | 'quarter';

/** A labelled part of a range: a calendar day, month or quarter in a zone. */
export interface Period extends Interval {
  /** 2026-03-01, 2026-03 or 2026-Q1. */
  label: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The instant a zone's calendar shows midnight starting this (UTC-normalised) date. */
export const midnight = (y: number, m: number, d: number, zone: string): number =>
  instantOfWallClock(Date.UTC(y, m, d), zone);

/** The zone's calendar date of an instant: [year, month 0–11, day]. */
export function localDate(at: number, zone: string): [number, number, number] {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(at));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return [get('year'), get('month') - 1, get('day')];
}

function step(kind: PeriodKind, y: number, m: number, d: number): [number, number, number] {
  if (kind === 'day') return [y, m, d + 1];
  return [y, m + (kind === 'month' ? 1 : 3), 1];
}

function label(kind: PeriodKind, y: number, m: number, d: number): string {
  if (kind === 'day') return `${y}-${pad(m + 1)}-${pad(d)}`;
  if (kind === 'month') return `${y}-${pad(m + 1)}`;
  return `${y}-Q${Math.floor(m / 3) + 1}`;
}

/**
 * The calendar periods of `kind` in `zone` that overlap a range, each clipped to it, oldest
 * first: a report's rows. Days start at the zone's midnight, so a day may last 23 or 25 hours.
 */
export function calendarPeriods(range: Interval, kind: PeriodKind, zone: string): Period[] {
  let [y, m, d] = localDate(range.start, zone);
  if (kind !== 'day') [m, d] = [kind === 'quarter' ? m - (m % 3) : m, 1];
  const out: Period[] = [];
  let start = midnight(y, m, d, zone);
  while (start < range.end) {
    const base = new Date(Date.UTC(y, m, d));
    [y, m, d] = [base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate()];
    const name = label(kind, y, m, d);
    [y, m, d] = step(kind, y, m, d);
    const end = midnight(y, m, d, zone);
    const clipped = { start: Math.max(start, range.start), end: Math.min(end, range.end) };
    if (clipped.end > clipped.start) out.push({ label: name, ...clipped });
    start = end;
  }
  return out;
}

/**
 * The rollup spans that hold exactly the checks of these periods: whole days inside each,
 * hours and minutes at their edges (a zone's midnight is rarely a UTC one). `to` is the last
 * bucket start, inclusive, as `coarsestSpans` has it.
 */
export function readSpans(periods: readonly Interval[]): Span[] {
  const minute = levelMs.minute;
  return periods.flatMap((p) => {
    const from = Math.ceil(p.start / minute) * minute;
    const last = Math.ceil(p.end / minute) * minute - minute;
    return last < from ? [] : coarsestSpans('minute', from, last);
  });
}
