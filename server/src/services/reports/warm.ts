import { readSpans, uniqueSpans } from '../../domain/availability/index.js';
import { addMonths, monthAt } from '../../domain/reports/months.js';
import { reportRange } from '../../domain/reports/range.js';
import type { ServiceDeps } from '../deps.js';

/** Closed months a year's report reads: what is kept ready in each zone. */
export const READY_MONTHS = 12;

const lastDayOf = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

export interface ReadyMonthsResult {
  zones: string[];
  monitors: number;
  /** Runs whose sketch was merged from the days now (not stored yet, or changed since). */
  merged: number;
}

/**
 * Keeps the last READY_MONTHS closed months of every monitor ready for reports (ADR 75): each
 * month's merged latency sketch is stored, in UTC and in every zone people report in, so the
 * first year's report after a month closes, a restart or an import reads 12 sums per monitor
 * instead of 365 days. Runs already stored and unchanged cost one aggregate read.
 */
export async function prepareReportMonths(deps: ServiceDeps): Promise<ReadyMonthsResult> {
  const now = deps.clock.now();
  const zones = [...new Set(['UTC', ...(await deps.repos.availability.zonesInUse())])];
  const ids = (await deps.repos.monitors.list()).map((m) => m.id);
  let merged = 0;
  if (ids.length === 0) return { zones, monitors: 0, merged };
  for (const zone of zones) {
    const last = addMonths(monthAt(now, zone), -1);
    const from = `${addMonths(last, -(READY_MONTHS - 1))}-01`;
    // The same range, periods and spans as a report of these months asks for.
    const range = reportRange({ kind: 'custom', from, to: lastDayOf(last) }, zone);
    if (typeof range === 'string') continue;
    const spans = uniqueSpans(
      readSpans([{ start: range.start, end: range.end }, ...range.periods]),
    );
    merged += await deps.repos.availability.prepareRuns(ids, spans);
  }
  return { zones, monitors: ids.length, merged };
}
