import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/db/database.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrations/index.js';
import { encodeOutcome } from '../../src/db/codecs.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { LatencySketch, RELATIVE_ACCURACY } from '../../src/domain/latency-sketch.js';
import {
  levelMs,
  mergeStoredSketch,
  phaseNames,
  rollupLevels,
  type StoredRollup,
} from '../../src/domain/rollup.js';
import { engines, openTestDatabase, testTarget } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import {
  batches,
  bruteFigures,
  exactPercentile,
  groupBy,
  randomCheck,
  rng,
  shuffle,
  sum,
  toWrite,
  type GenCheck,
} from '../support/history.js';

const T0 = Date.UTC(2026, 2, 1, 22, 0, 0);
const DAY = 86_400_000;

/** The stored bucket equals the brute-force figures of the checks that fall in it. */
function expectBucket(row: StoredRollup, checks: readonly GenCheck[], where: string): void {
  const b = bruteFigures(checks);
  expect(row, where).toMatchObject({
    checks: b.checks,
    up: b.up,
    degraded: b.degraded,
    down: b.down,
    latencySumUs: sum(b.latencies),
    latencyCount: b.latencies.length,
    latencyMinUs: b.latencies[0] ?? null,
    latencyMaxUs: b.latencies.at(-1) ?? null,
  });
  for (const p of phaseNames) {
    expect(row.phases[p], `${where} ${p}`).toEqual({
      sumUs: sum(b.phases[p]),
      count: b.phases[p].length,
    });
  }
  // Merging is exact, so the stored sketch is the sketch of the bucket's latencies.
  const stored = new LatencySketch();
  mergeStoredSketch(stored, row);
  const direct = new LatencySketch();
  for (const us of b.latencies) direct.add(us);
  expect(stored.serialize(), where).toEqual(direct.serialize());
  expect(row.sketch === null, where).toBe(b.latencies.length <= 2);
  for (const p of [50, 95, 99]) {
    const exact = exactPercentile(b.latencies, p);
    const got = stored.quantile(p / 100);
    if (exact === null) expect(got).toBeNull();
    else
      expect(Math.abs((got ?? 0) - exact) / exact).toBeLessThanOrEqual(RELATIVE_ACCURACY * 1.0001);
  }
}

describe.each(engines)('rollups on %s', (engine) => {
  let database: Database;
  let repos: Repositories;
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    database = handle.database;
    repos = repositories(database);
  });
  afterAll(async () => handle.cleanup());

  it('equal a brute-force computation over the raw results, whatever the batching and order', async () => {
    const r = rng(20260301);
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push((await repos.monitors.insert(monitorInput(), T0)).id);
    // Dense minutes, sparse hours, across two day boundaries; several checks per minute too.
    const checks: GenCheck[] = [];
    for (const id of ids) {
      let at = T0 - 3 * 3_600_000;
      while (at < T0 + 2 * DAY) {
        checks.push(randomCheck(r, id, at));
        at += r() < 0.7 ? Math.floor(r() * 25_000) : Math.floor(r() * 2 * 3_600_000);
      }
    }
    // Shuffled then cut into batches: out of order within a batch and across batches.
    for (const batch of batches(r, shuffle(r, [...checks]), 60)) {
      await repos.results.writeBatch(batch.map(toWrite));
    }

    for (const level of rollupLevels) {
      for (const id of ids) {
        const expected = groupBy(
          checks.filter((c) => c.monitorId === id),
          levelMs[level],
        );
        const rows = await repos.rollups.read(level, id, 0, T0 + 10 * DAY);
        expect(rows.map((row) => row.bucket)).toEqual([...expected.keys()].sort((a, b) => a - b));
        for (const row of rows) {
          expectBucket(row, expected.get(row.bucket) ?? [], `${level} ${id} ${row.bucket}`);
        }
      }
    }
    expect(checks.length).toBeGreaterThan(300);
  });

  it('keep a bucket exact as it grows from one latency to many, one result per batch', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    const r = rng(5);
    const checks: GenCheck[] = [];
    for (let i = 0; i < 12; i += 1) {
      const c = randomCheck(r, m.id, T0 + i * 1000);
      checks.push({ ...c, outcome: 'up', latencyUs: 1000 + Math.floor(r() * 1e6) });
      await repos.results.writeBatch([toWrite(checks.at(-1) as GenCheck)]);
      const [row] = await repos.rollups.read('minute', m.id, T0, T0);
      expectBucket(row as StoredRollup, checks, `after ${i + 1}`);
    }
  });

  it('read only the buckets that start within the range asked', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    const r = rng(9);
    await repos.results.writeBatch(
      [0, 1, 2, 3].map((h) => toWrite(randomCheck(r, m.id, T0 + h * 3_600_000 + 5))),
    );
    const rows = await repos.rollups.read('hour', m.id, T0 + 3_600_000, T0 + 2 * 3_600_000);
    expect(rows.map((row) => row.bucket)).toEqual([T0 + 3_600_000, T0 + 2 * 3_600_000]);
  });
});

/** A bare connection, so the test can stop migrating before 003. */
function connect(target: DatabaseTarget): Kysely<any> {
  if (target.kind === 'sqlite') {
    return new Kysely({ dialect: new SqliteDialect({ database: new SQLite(target.file) }) });
  }
  const options = target.schema ? `-c search_path=${target.schema}` : undefined;
  return new Kysely({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: target.url, max: 2, ...(options ? { options } : {}) }),
    }),
  });
}

describe.each(engines)('migration 003 on %s', (engine) => {
  it('rebuilds the rollups from the raw results already stored', async () => {
    const t = await testTarget(engine);
    const r = rng(3);
    const raw = connect(t.target);
    let database: Database | null = null;
    try {
      await migrateTo(raw, engine, '002-accounts');
      const monitor = await raw
        .insertInto('monitors')
        .values({
          type: 'http',
          name: 'Before 003',
          config: '{}',
          interval_s: 60,
          timeout_s: 10,
          retries: 1,
          created_at: T0,
          updated_at: T0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(monitor.id);
      const checks = Array.from({ length: 400 }, (_, i) => randomCheck(r, id, T0 + i * 9_000));
      for (const part of batches(r, checks, 150)) {
        await raw
          .insertInto('check_results')
          .values(
            part.map((c) => ({
              monitor_id: id,
              at: c.at,
              outcome: encodeOutcome(c.outcome),
              latency_us: c.latencyUs,
              dns_us: c.phasesUs.dns,
              connect_us: c.phasesUs.connect,
              tls_us: c.phasesUs.tls,
              ttfb_us: c.phasesUs.ttfb,
              download_us: c.phasesUs.download,
            })),
          )
          .execute();
      }
      await migrateToLatest(raw, engine);
      await raw.destroy();
      database = await openDatabase(t.target);
      const repos = repositories(database);
      for (const level of rollupLevels) {
        const expected = groupBy(checks, levelMs[level]);
        const rows = await repos.rollups.read(level, id, 0, T0 + DAY);
        expect(rows).toHaveLength(expected.size);
        for (const row of rows) expectBucket(row, expected.get(row.bucket) ?? [], level);
      }
    } finally {
      await database?.close();
      await t.cleanup();
    }
  });
});
