import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { rollupTables } from '../../src/db/repositories/rollups.js';
import { levelMs, rollupLevels, type RollupLevel } from '../../src/domain/rollup.js';
import { defaultRetention, runRetention, startRetention } from '../../src/jobs/retention.js';
import type { Logger } from '../../src/lib/logger.js';
import { engines, openTestDatabase } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { batches, groupBy, randomCheck, rng, toWrite, type GenCheck } from '../support/history.js';

const NOW = Date.UTC(2026, 6, 1, 12, 0, 30);
const DAY = 86_400_000;
const { rawMs, minuteMs, hourMs } = defaultRetention;

describe.each(engines)('retention on %s', (engine) => {
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  let database: Database;
  let repos: Repositories;

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    database = handle.database;
    repos = repositories(database);
  });
  afterAll(async () => handle.cleanup());

  async function monitors(n: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < n; i += 1) ids.push((await repos.monitors.insert(monitorInput(), 0)).id);
    return ids;
  }

  async function write(checks: readonly GenCheck[]): Promise<void> {
    for (const b of batches(rng(checks.length), checks, 80)) {
      await repos.results.writeBatch(b.map(toWrite));
    }
  }

  /** Every stored row of these monitors, in key order, for before/after comparisons. */
  async function snapshot(ids: number[]) {
    const raw = await database.db
      .selectFrom('check_results')
      .select(['id', 'monitor_id', 'at'])
      .where('monitor_id', 'in', ids)
      .orderBy('id')
      .execute();
    const rollups = {} as Record<
      RollupLevel,
      { monitor_id: number; bucket: number; checks: number }[]
    >;
    for (const level of rollupLevels) {
      rollups[level] = await database.db
        .selectFrom(rollupTables[level] as 'rollup_hour')
        .selectAll()
        .where('monitor_id', 'in', ids)
        .orderBy('monitor_id')
        .orderBy('bucket')
        .execute();
    }
    return { raw, rollups };
  }

  it('deletes exactly the expired rows and leaves the kept history intact', async () => {
    const ids = await monitors(3);
    const r = rng(11);
    const edges = [rawMs, minuteMs, hourMs].flatMap((keep) => [keep + 1, keep, keep - 1]);
    const ages = [800 * DAY, ...edges, 100 * DAY, 40 * DAY, DAY, 3_600_000, 1000];
    const checks = ids.flatMap((id) => [
      ...ages.map((age) => randomCheck(r, id, NOW - age)),
      ...Array.from({ length: 60 }, () => randomCheck(r, id, NOW - Math.floor(r() * 900 * DAY))),
    ]);
    await write(checks);
    const before = await snapshot(ids);

    const report = await runRetention(repos, NOW, {
      batchSize: 7,
      monitorsPerStatement: 2,
      pauseMs: 0,
    });

    const after = await snapshot(ids);
    expect(after.raw).toEqual(before.raw.filter((row) => Number(row.at) >= NOW - rawMs));
    const kept = { minute: NOW - minuteMs, hour: NOW - hourMs, day: -Infinity };
    for (const level of rollupLevels) {
      expect(after.rollups[level], level).toEqual(
        before.rollups[level].filter((row) => Number(row.bucket) >= kept[level]),
      );
    }
    expect(report).toEqual({
      raw: before.raw.length - after.raw.length,
      minute: before.rollups.minute.length - after.rollups.minute.length,
      hour: before.rollups.hour.length - after.rollups.hour.length,
    });
    expect(report.raw).toBeGreaterThan(7);
    expect(report.minute).toBeGreaterThan(7);
    expect(report.hour).toBeGreaterThan(7);
    expect(await runRetention(repos, NOW, { pauseMs: 0 })).toEqual({ raw: 0, minute: 0, hour: 0 });
  });

  it('runs under load: every write succeeds and nothing recent is deleted', async () => {
    const ids = await monitors(4);
    const r = rng(23);
    const old = ids.flatMap((id) =>
      Array.from({ length: 500 }, () =>
        randomCheck(r, id, NOW - rawMs - 1 - Math.floor(r() * 800 * DAY)),
      ),
    );
    await write(old);

    let done = false;
    let writesDuringRetention = 0;
    const recent: GenCheck[] = [];
    // Writes recent results batch after batch for as long as retention runs.
    const writer = (async () => {
      while (!done) {
        const batch = Array.from({ length: 10 }, () =>
          randomCheck(r, ids[Math.floor(r() * ids.length)] ?? 0, NOW - Math.floor(r() * rawMs)),
        );
        await repos.results.writeBatch(batch.map(toWrite));
        recent.push(...batch);
        if (!done) writesDuringRetention += 1;
        // better-sqlite3 resolves in microtasks: without a turn of the event loop here this
        // loop would starve every timer. The real ResultWriter flushes from a timer too.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const report = await runRetention(repos, NOW, {
      batchSize: 25,
      monitorsPerStatement: 2,
      pauseMs: 1,
    }).finally(() => (done = true));
    await writer;

    expect(writesDuringRetention).toBeGreaterThan(1);
    expect(report.raw).toBe(old.length);
    const after = await snapshot(ids);
    expect(after.raw.map((row) => Number(row.at)).sort((a, b) => a - b)).toEqual(
      recent.map((c) => c.at).sort((a, b) => a - b),
    );
    // The kept buckets hold exactly the checks they should: recent ones plus old ones still kept.
    const kept = { minute: NOW - minuteMs, hour: NOW - hourMs, day: -Infinity };
    for (const level of rollupLevels) {
      const expected = new Map<string, number>();
      for (const id of ids) {
        const mine = [...old, ...recent].filter((c) => c.monitorId === id);
        for (const [bucket, cs] of groupBy(mine, levelMs[level])) {
          if (bucket >= kept[level]) expected.set(`${id}:${bucket}`, cs.length);
        }
      }
      const got = new Map(
        after.rollups[level].map((row) => [`${row.monitor_id}:${Number(row.bucket)}`, row.checks]),
      );
      expect(got, level).toEqual(expected);
    }
  }, 60_000);

  it('runs shortly after start, logs what it deleted, and stops cleanly', async () => {
    const [id = 0] = await monitors(1);
    await write([randomCheck(rng(5), id, NOW - 40 * DAY), randomCheck(rng(6), id, NOW - DAY)]);
    const logger = { info: vi.fn(), debug: vi.fn(), warn: vi.fn() };
    const job = startRetention(repos, { now: () => NOW }, logger as unknown as Logger, {
      firstAfterMs: 1,
      everyMs: 3_600_000,
      pauseMs: 0,
    });
    await vi.waitFor(() => expect(logger.info).toHaveBeenCalled());
    await job.stop();
    expect(logger.info).toHaveBeenCalledWith(
      expect.objectContaining({ deleted: expect.objectContaining({ raw: 1 }) as unknown }),
      'retention: deleted expired history',
    );
    expect(logger.warn).not.toHaveBeenCalled();
    expect((await repos.results.page(id, 10)).items.map((i) => Date.parse(i.at))).toEqual([
      NOW - DAY,
    ]);
  });
});
