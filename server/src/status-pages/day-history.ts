import type { DayCounts, StatusPublicRepository } from '../db/repositories/status-public.js';
import type { EventHub } from '../lib/event-hub.js';

export const DAY_MS = 86_400_000;
/** Days a status page's bars show. */
export const BAR_DAYS = 90;
const FIELDS = 4;

/** The UTC midnight starting the day of `at`. */
export const dayOf = (at: number): number => Math.floor(at / DAY_MS) * DAY_MS;

/** One monitor's last 90 UTC days, oldest first: checks, up, degraded, down per day. */
export type DayGrid = Int32Array;

export interface GridDay {
  checks: number;
  up: number;
  degraded: number;
  down: number;
}

export const gridDay = (grid: DayGrid, index: number): GridDay => {
  const o = index * FIELDS;
  return {
    checks: grid[o] ?? 0,
    up: grid[o + 1] ?? 0,
    degraded: grid[o + 2] ?? 0,
    down: grid[o + 3] ?? 0,
  };
};

function put(grid: DayGrid, from: number, r: DayCounts): void {
  const index = Math.round((r.day - from) / DAY_MS);
  if (index < 0 || index >= BAR_DAYS) return;
  grid.set([r.checks, r.up, r.degraded, r.down], index * FIELDS);
}

/** The first day of the 90 that end with `today`. */
export const firstBarDay = (today: number): number => today - (BAR_DAYS - 1) * DAY_MS;

export interface DayHistoryOptions {
  /** Monitors whose finished days are kept; the least recently read are dropped first. */
  maxMonitors?: number;
}

/**
 * Day rollups for the bars. Days before yesterday are final (a late result lands seconds after
 * midnight, never a day later), so each monitor's are read once per UTC day and kept; a render
 * reads only yesterday's and today's rows — 100 rows for 50 components instead of 4,500.
 */
export class DayHistory {
  private day = -1;
  private readonly finished = new Map<number, DayGrid>();
  private readonly maxMonitors: number;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly repo: Pick<StatusPublicRepository, 'days'>,
    hub: EventHub,
    options: DayHistoryOptions = {},
  ) {
    this.maxMonitors = options.maxMonitors ?? 20_000;
    // A deleted monitor's history goes with it (an id is never reused, but memory is).
    this.unsubscribe = hub.subscribe(({ event }) => {
      if (event.kind === 'monitor' && event.change === 'deleted')
        this.finished.delete(event.monitorId);
    });
  }

  close(): void {
    this.unsubscribe();
  }

  /** A grid per monitor for the 90 days ending `today` (a UTC midnight). */
  async grids(ids: readonly number[], today: number): Promise<Map<number, DayGrid>> {
    if (today !== this.day) {
      this.finished.clear();
      this.day = today;
    }
    const from = firstBarDay(today);
    const liveFrom = today - DAY_MS;
    const missing = [...new Set(ids)].filter((id) => !this.finished.has(id));
    const [old, live] = await Promise.all([
      missing.length > 0 ? this.repo.days(missing, from, liveFrom - DAY_MS) : [],
      ids.length > 0 ? this.repo.days(ids, liveFrom, today) : [],
    ]);
    const loaded = gridsOf(missing, old, from);
    if (this.day === today) this.keep(loaded);
    const out = new Map<number, DayGrid>();
    for (const id of ids) {
      const kept = this.finished.get(id);
      if (kept) {
        // Least recently read first out.
        this.finished.delete(id);
        this.finished.set(id, kept);
      }
      const grid = kept ?? loaded.get(id);
      if (grid) out.set(id, grid.slice());
    }
    for (const r of live) {
      const grid = out.get(r.monitorId);
      if (grid) put(grid, from, r);
    }
    return out;
  }

  get size(): number {
    return this.finished.size;
  }

  private keep(grids: ReadonlyMap<number, DayGrid>): void {
    for (const [id, grid] of grids) this.finished.set(id, grid);
    while (this.finished.size > this.maxMonitors) {
      const oldest = this.finished.keys().next().value;
      if (oldest === undefined) break;
      this.finished.delete(oldest);
    }
  }
}

function gridsOf(ids: readonly number[], rows: readonly DayCounts[], from: number) {
  const grids = new Map(ids.map((id) => [id, new Int32Array(BAR_DAYS * FIELDS)]));
  for (const r of rows) {
    const grid = grids.get(r.monitorId);
    if (grid) put(grid, from, r);
  }
  return grids;
}
