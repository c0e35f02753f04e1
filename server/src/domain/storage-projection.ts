import type { RetentionSettings } from '@pagewatch/contract';

const DAY_MS = 86_400_000;

export type Grain = 'raw' | 'minute' | 'hour' | 'day';

/** Bytes one row takes with its share of the table's indexes. */
export type RowBytes = Readonly<Record<Grain, number>>;

/**
 * Measured, not guessed: a day of 60 s HTTPS results of several monitors written through the
 * result writer, the tables' growth with their indexes (SQLite: dbstat pages; PostgreSQL:
 * pg_total_relation_size after VACUUM FULL) over their rows; day rows are an hour row with a
 * day's sketch. test/db/storage-figures.test.ts fails when a fresh measurement differs by 30 %.
 */
export const measuredRowBytes: Readonly<Record<'sqlite' | 'postgres', RowBytes>> = {
  sqlite: { raw: 66, minute: 58, hour: 128, day: 159 },
  postgres: { raw: 150, minute: 207, hour: 285, day: 330 },
};

export interface ProjectionInput {
  now: number;
  /** Active monitors grouped by interval. */
  intervals: readonly { intervalS: number; monitors: number }[];
  retention: RetentionSettings;
  /** Start of the oldest row held at each grain (null: none yet). */
  reach: Readonly<Record<Grain, number | null>>;
  rowBytes: RowBytes;
  databaseBytes: number;
  freeDiskBytes: number | null;
}

export interface Projection {
  activeMonitors: number;
  checksPerMinute: number;
  projection: {
    rawBytes: number;
    minuteBytes: number;
    hourBytes: number;
    dayBytes: number;
    dayBytesPerYear: number;
  };
  projectedBytes: number;
  exceedsFreeDisk: boolean;
}

/** Rows a day one monitor adds at each grain: a bucket holds at most one row per monitor. */
function rowsPerDay(intervalS: number): Record<Grain, number> {
  return {
    raw: 86_400 / intervalS,
    minute: 1_440 * Math.min(1, 60 / intervalS),
    hour: 24 * Math.min(1, 3_600 / intervalS),
    day: Math.min(1, 86_400 / intervalS),
  };
}

/**
 * Where the database is heading at the current check rate under the configured retention:
 * each grain's size once it holds its whole keep, and the growth still to come from what is
 * held now. Day rollups kept forever are counted up to the hour rollups' keep.
 */
export function projectStorage(input: ProjectionInput): Projection {
  const { retention: r } = input;
  const grains: Grain[] = ['raw', 'minute', 'hour', 'day'];
  const keepDays: Record<Grain, number> = {
    raw: r.rawDays,
    minute: r.minuteRollupDays,
    hour: r.hourRollupDays,
    day: r.dayRollupDays ?? r.hourRollupDays,
  };
  const perDay: Record<Grain, number> = { raw: 0, minute: 0, hour: 0, day: 0 };
  let activeMonitors = 0;
  for (const { intervalS, monitors } of input.intervals) {
    activeMonitors += monitors;
    const rows = rowsPerDay(intervalS);
    for (const g of grains) perDay[g] += rows[g] * monitors;
  }
  const bytes = {} as Record<Grain, number>;
  let growth = 0;
  for (const g of grains) {
    const dayBytes = perDay[g] * input.rowBytes[g];
    bytes[g] = dayBytes * keepDays[g];
    const since = input.reach[g];
    const heldDays = since === null ? 0 : Math.max(0, (input.now - since) / DAY_MS);
    growth += dayBytes * Math.max(0, keepDays[g] - heldDays);
  }
  return {
    activeMonitors,
    checksPerMinute: perDay.raw / 1_440,
    projection: {
      rawBytes: Math.round(bytes.raw),
      minuteBytes: Math.round(bytes.minute),
      hourBytes: Math.round(bytes.hour),
      dayBytes: Math.round(bytes.day),
      dayBytesPerYear:
        r.dayRollupDays === null ? Math.round(perDay.day * input.rowBytes.day * 365) : 0,
    },
    // Files do not shrink when rows go (freed pages are reused): the size now is a floor.
    projectedBytes: Math.round(input.databaseBytes + growth),
    exceedsFreeDisk: input.freeDiskBytes !== null && growth > input.freeDiskBytes,
  };
}
