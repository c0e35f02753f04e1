import type { EventHub } from '../lib/event-hub.js';

/** A rollup row as the history keeps it: its bucket's start and a fixed list of figures. */
export interface BucketRow {
  monitorId: number;
  bucket: number;
  values: readonly number[];
}

export interface BucketHistoryOptions {
  /** Length of one bucket, ms (a day, an hour). */
  bucketMs: number;
  /** Buckets in a grid, the current one last. */
  buckets: number;
  /** Figures per bucket. */
  fields: number;
  /** Rollup rows of these monitors with buckets in [from, to]. */
  read: (ids: readonly number[], from: number, to: number) => Promise<BucketRow[]>;
  /**
   * Monitors whose finished buckets are kept (default 10,000; 90 days take 2.9 KiB each, 24
   * hours 0.4 KiB); the least recently read are dropped first.
   */
  maxMonitors?: number;
}

/**
 * One monitor's last `buckets` buckets, oldest first, `fields` figures each (all 0: no row).
 * Indexed by `bucket * fields + field`.
 */
export type Grid = Float64Array;

/**
 * Rollups for status pages, kept in memory. Buckets before the previous one are final (a late
 * result lands seconds after a bucket ends, never a bucket later), so each monitor's are read
 * once per bucket period and kept; a render reads only the previous and the current bucket's
 * rows — for 90 days of 50 components, 100 rows instead of 4,500.
 */
export class BucketHistory {
  private current = -1;
  private readonly finished = new Map<number, Grid>();
  private readonly maxMonitors: number;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly options: BucketHistoryOptions,
    hub: EventHub,
  ) {
    this.maxMonitors = options.maxMonitors ?? 10_000;
    // A deleted monitor's history goes with it (ids are never reused, but memory is).
    this.unsubscribe = hub.subscribe(({ event }) => {
      if (event.kind === 'monitor' && event.change === 'deleted')
        this.finished.delete(event.monitorId);
    });
  }

  close(): void {
    this.unsubscribe();
  }

  get size(): number {
    return this.finished.size;
  }

  /** The start of the first bucket of a grid whose last bucket starts at `current`. */
  first(current: number): number {
    return current - (this.options.buckets - 1) * this.options.bucketMs;
  }

  /** A grid per monitor for the buckets ending with the one starting at `current`. */
  async grids(ids: readonly number[], current: number): Promise<Map<number, Grid>> {
    const { bucketMs, read } = this.options;
    if (current !== this.current) {
      this.finished.clear();
      this.current = current;
    }
    const from = this.first(current);
    const liveFrom = current - bucketMs;
    const missing = [...new Set(ids)].filter((id) => !this.finished.has(id));
    const [old, live] = await Promise.all([
      missing.length > 0 && from < liveFrom ? read(missing, from, liveFrom - bucketMs) : [],
      ids.length > 0 ? read(ids, Math.max(from, liveFrom), current) : [],
    ]);
    const loaded = this.gridsOf(missing, old, from);
    if (this.current === current) this.keep(loaded);
    const out = new Map<number, Grid>();
    for (const id of ids) {
      const kept = this.finished.get(id);
      if (kept) {
        this.finished.delete(id);
        this.finished.set(id, kept);
      }
      const grid = kept ?? loaded.get(id);
      if (grid) out.set(id, grid.slice());
    }
    for (const r of live) {
      const grid = out.get(r.monitorId);
      if (grid) this.put(grid, from, r);
    }
    return out;
  }

  private put(grid: Grid, from: number, r: BucketRow): void {
    const index = Math.round((r.bucket - from) / this.options.bucketMs);
    if (index < 0 || index >= this.options.buckets) return;
    grid.set(r.values.slice(0, this.options.fields), index * this.options.fields);
  }

  private gridsOf(ids: readonly number[], rows: readonly BucketRow[], from: number) {
    const { buckets, fields } = this.options;
    const grids = new Map(ids.map((id) => [id, new Float64Array(buckets * fields)]));
    for (const r of rows) {
      const grid = grids.get(r.monitorId);
      if (grid) this.put(grid, from, r);
    }
    return grids;
  }

  private keep(grids: ReadonlyMap<number, Grid>): void {
    for (const [id, grid] of grids) this.finished.set(id, grid);
    while (this.finished.size > this.maxMonitors) {
      const oldest = this.finished.keys().next().value;
      if (oldest === undefined) break;
      this.finished.delete(oldest);
    }
  }
}
