import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { measuredRowBytes, type Grain } from '../../src/domain/storage-projection.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { engines, openTestDatabase } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { randomCheck, rng, toWrite } from '../support/history.js';

const MONITORS = 8;
const CHECKS = 1440; // a day at 60 s
const DAY = 86_400_000;
const tables: Record<Grain, string> = {
  raw: 'check_results',
  minute: 'rollup_minute',
  hour: 'rollup_hour',
  day: 'rollup_day',
};

/** Normal-ish noise from the seeded PRNG (sum of three uniforms). */
const noise = (r: () => number) => r() + r() + r() - 1.5;

/**
 * A result as a real HTTPS check records it: mostly up, latencies clustered around the
 * monitor's own typical time (which is what keeps sketches small), now and then down.
 */
function realistic(r: () => number, monitorId: number, at: number, typicalMs: number): ResultWrite {
  const w = toWrite({ ...randomCheck(r, monitorId, at), outcome: 'up' });
  const ms = (share: number) =>
    Math.round(typicalMs * share * Math.exp(0.3 * noise(r)) * 1000) / 1000;
  if (r() < 0.02) {
    w.status = 'down';
    w.run = {
      ...w.run,
      outcome: 'down',
      latencyMs: null,
      phases: { dns: null, connect: null, tls: null, ttfb: null, download: null },
      httpStatus: null,
      errorCode: 'connect_refused',
      errorMessage: 'connect ECONNREFUSED 203.0.113.7:443',
    };
  } else {
    const phases = {
      dns: r() < 0.9 ? null : ms(0.05),
      connect: ms(0.1),
      tls: ms(0.25),
      ttfb: ms(0.5),
      download: ms(0.1),
    };
    w.run = {
      ...w.run,
      latencyMs: ms(1),
      phases,
      httpStatus: 200,
      responseSize: 4_000 + Math.floor(r() * 60_000),
    };
  }
  return w;
}

/** Bytes a table takes with its indexes. */
async function bytesOf(database: Database, table: string): Promise<number> {
  if (database.engine === 'postgres') {
    const { rows } = await sql<{ bytes: number }>`
      select pg_total_relation_size(${table}::regclass)::bigint as bytes`.execute(database.db);
    return Number(rows[0]?.bytes ?? 0);
  }
  const { rows } = await sql<{ bytes: number | null }>`
    select sum(pgsize) as bytes from dbstat
    where name in (select name from sqlite_master where tbl_name = ${table})`.execute(database.db);
  return Number(rows[0]?.bytes ?? 0);
}

describe.each(engines)('bytes per stored row on %s', (engine) => {
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  let repos: Repositories;

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    repos = repositories(handle.database);
  });
  afterAll(async () => handle?.cleanup());

  it(
    'stays within 30 % of the figures the storage projection uses',
    { timeout: 120_000 },
    async () => {
      const r = rng(97);
      const start = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
      const writes: ResultWrite[] = [];
      for (let m = 0; m < MONITORS; m += 1) {
        const { id } = await repos.monitors.insert(monitorInput({ paused: true }), start);
        const typical = 40 + r() * 400;
        for (let i = 0; i < CHECKS; i += 1)
          writes.push(realistic(r, id, start + i * 60_000 + 7_000, typical));
      }
      const before = {} as Record<Grain, number>;
      for (const g of Object.keys(tables) as Grain[])
        before[g] = await bytesOf(handle.database, tables[g]);
      for (let i = 0; i < writes.length; i += 500)
        await repos.results.writeBatch(writes.slice(i, i + 500));
      // PostgreSQL keeps an old version of a row per upsert until vacuumed: measure live rows.
      if (engine === 'postgres')
        await sql`vacuum full check_results, rollup_minute, rollup_hour, rollup_day`.execute(
          handle.database.db,
        );

      const measured = {} as Record<Grain, { rows: number; bytesPerRow: number }>;
      for (const g of Object.keys(tables) as Grain[]) {
        const { rows } = await sql<{
          n: number;
        }>`select count(*) as n from ${sql.table(tables[g])}`.execute(handle.database.db);
        const n = Number(rows[0]?.n ?? 0);
        measured[g] = {
          rows: n,
          bytesPerRow:
            Math.round((((await bytesOf(handle.database, tables[g])) - before[g]) / n) * 10) / 10,
        };
      }
      // Too few day rows to measure pages: an hour row with a day's sketch in place of its own.
      const sketch = async (table: string) => {
        const len =
          engine === 'postgres' ? sql`octet_length(latency_sketch)` : sql`length(latency_sketch)`;
        const { rows } = await sql<{
          n: number;
        }>`select avg(${len}) as n from ${sql.table(table)}`.execute(handle.database.db);
        return Number(rows[0]?.n ?? 0);
      };
      measured.day.bytesPerRow =
        Math.round(
          (measured.hour.bytesPerRow -
            (await sketch('rollup_hour')) +
            (await sketch('rollup_day'))) *
            10,
        ) / 10;
      // Printed so docs/configuration.md and measuredRowBytes can be checked against a fresh run.
      console.log(`bytes per row on ${engine}`, JSON.stringify(measured));
      expect(measured.raw.rows).toBe(MONITORS * CHECKS);
      expect(measured.minute.rows).toBe(MONITORS * CHECKS);
      for (const g of ['raw', 'minute', 'hour', 'day'] as const) {
        const figure = measuredRowBytes[engine][g];
        expect(measured[g].bytesPerRow, g).toBeGreaterThan(figure * 0.7);
        expect(measured[g].bytesPerRow, g).toBeLessThan(figure * 1.3);
      }
    },
  );
});
