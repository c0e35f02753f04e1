import type { StatusPublicRepository } from '../db/repositories/status-public.js';
import type { EventHub } from '../lib/event-hub.js';
import { BucketHistory, type Grid } from './bucket-history.js';

export const DAY_MS = 86_400_000;
/** Days a status page's bars show. */
export const BAR_DAYS = 90;
export const HOUR_MS = 3_600_000;
/** Hours the response time chart covers, the current one last. */
export const CHART_HOURS = 24;

/** The UTC midnight starting the day of `at`. */
export const dayOf = (at: number): number => Math.floor(at / DAY_MS) * DAY_MS;
export const hourOf = (at: number): number => Math.floor(at / HOUR_MS) * HOUR_MS;

export interface GridDay {
  checks: number;
  up: number;
  degraded: number;
  down: number;
}

/** Day `index` of a day grid (checks, up, degraded, down). */
export const gridDay = (grid: Grid, index: number): GridDay => {
  const o = index * 4;
  return {
    checks: grid[o] ?? 0,
    up: grid[o + 1] ?? 0,
    degraded: grid[o + 2] ?? 0,
    down: grid[o + 3] ?? 0,
  };
};

/** Hour `index` of an hour grid: the summed latency (µs) and how many checks were timed. */
export const gridHour = (grid: Grid, index: number): { sumUs: number; count: number } => ({
  sumUs: grid[index * 2] ?? 0,
  count: grid[index * 2 + 1] ?? 0,
});

/** The rollups status pages draw: 90 days for the bars, 24 hours for the response time chart. */
export interface PageHistories {
  days: BucketHistory;
  hours: BucketHistory;
  close(): void;
}

export function pageHistories(
  repo: Pick<StatusPublicRepository, 'days' | 'hourlyLatency'>,
  hub: EventHub,
): PageHistories {
  const histories = {
    days: new BucketHistory(
      {
        bucketMs: DAY_MS,
        buckets: BAR_DAYS,
        fields: 4,
        read: async (ids, from, to) =>
          (await repo.days(ids, from, to)).map((r) => ({
            monitorId: r.monitorId,
            bucket: r.day,
            values: [r.checks, r.up, r.degraded, r.down],
          })),
      },
      hub,
    ),
    hours: new BucketHistory(
      {
        bucketMs: HOUR_MS,
        buckets: CHART_HOURS,
        fields: 2,
        read: async (ids, from, to) =>
          (await repo.hourlyLatency(ids, from, to)).map((r) => ({
            monitorId: r.monitorId,
            bucket: r.hour,
            values: [r.sumUs, r.count],
          })),
      },
      hub,
    ),
  };
  return {
    ...histories,
    close() {
      histories.days.close();
      histories.hours.close();
    },
  };
}

/** The dates (YYYY-MM-DD) of the 90 bars that end with `today`, oldest first. */
export function barDates(today: number): string[] {
  return Array.from({ length: BAR_DAYS }, (_, i) =>
    new Date(today - (BAR_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}
