import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { rollupSeries, summarizeRollups } from '../../src/domain/rollup-stats.js';
import { settingsOf } from '../../src/domain/monitor.js';
import { engines, testTarget, type TestTarget } from '../support/engines.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);

function write(
  monitorId: number,
  at: number,
  run = checkRun(),
  extra: Partial<ResultWrite> = {},
): ResultWrite {
  return {
    monitorId,
    at,
    run,
    status: run.outcome === 'down' ? 'down' : run.outcome,
    failures: 0,
    recent: [[run.outcome, run.latencyMs]],
    flip: null,
    ...extra,
  };
}

/** The storage contract: every engine must pass this suite unchanged. */
describe.each(engines)('storage on %s', (engine) => {
  let target: TestTarget;
  let database: Database;
  let repos: Repositories;

  beforeAll(async () => {
    target = await testTarget(engine);
    database = await openDatabase(target.target);
    repos = repositories(database);
  });
  afterAll(async () => {
    await database.close();
    await target.cleanup();
  });

  it('reports its engine and answers a ping', async () => {
    expect(database.engine).toBe(engine);
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it('applies migrations once: reopening the same database is a no-op', async () => {
    const again = await openDatabase(target.target);
    await again.close();
  });

  it('stores a monitor and reads back exactly its definition', async () => {
    const input = monitorInput({
      name: 'Shop — checkout ✓',
      tags: ['prod', 'eu'],
      headers: [{ name: 'X-Token', value: 'a"b' }],
      assertions: [{ kind: 'keyword', value: 'Welcome', caseSensitive: false }],
      degradedThresholdMs: 800,
    });
    const created = await repos.monitors.insert(input, T0);
    const found = await repos.monitors.findById(created.id);
    expect(found).toEqual(created);
    expect(found).toMatchObject({
      name: 'Shop — checkout ✓',
      tags: ['prod', 'eu'],
      degradedThresholdMs: 800,
      paused: false,
      state: { status: 'pending', failures: 0 },
      lastCheck: null,
      recent: [],
      createdAt: T0,
    });
    expect(found?.settings).toMatchObject({
      url: input.url,
      headers: [{ name: 'X-Token', value: 'a"b' }],
      assertions: input.assertions,
    });
  });

  it('replaces a definition, resetting the state only when asked', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    await repos.results.writeBatch([
      write(m.id, T0 + 1000, downRun(), {
        status: 'down',
        failures: 2,
        flip: { from: 'pending', to: 'down' },
      }),
    ]);
    const kept = await repos.monitors.replace(
      m.id,
      monitorInput({ name: 'Renamed', url: settingsOf(m, 'http').url }),
      T0 + 2000,
      false,
    );
    expect(kept).toMatchObject({
      name: 'Renamed',
      state: { status: 'down', failures: 2 },
      updatedAt: T0 + 2000,
    });
    const reset = await repos.monitors.replace(
      m.id,
      monitorInput({ url: 'https://example.com/' }),
      T0 + 3000,
      true,
    );
    expect(reset?.state).toEqual({ status: 'pending', failures: 0 });
    expect(await repos.monitors.replace(999_999, monitorInput(), T0, false)).toBeNull();
  });

  it('pauses, lists active monitors and deletes with history', async () => {
    const a = await repos.monitors.insert(monitorInput(), T0);
    await repos.results.writeBatch([write(a.id, T0)]);
    await repos.monitors.setPaused(a.id, true, T0 + 1);
    expect((await repos.monitors.listActive()).map((m) => m.id)).not.toContain(a.id);
    expect((await repos.monitors.findById(a.id))?.paused).toBe(true);
    expect(await repos.monitors.remove(a.id)).toBe(true);
    expect(await repos.monitors.remove(a.id)).toBe(false);
    expect(await repos.monitors.findById(a.id)).toBeNull();
    expect((await repos.results.page(a.id, 10)).items).toEqual([]);
  });

  it('deletes a long history in batches, leaving no result or rollup of the monitor behind', async () => {
    const gone = await repos.monitors.insert(monitorInput(), T0);
    const kept = await repos.monitors.insert(monitorInput(), T0);
    // 40 checks an hour apart: 40 results, 40 minute rollups, 40 hour rollups, 2 days.
    const hours = Array.from({ length: 40 }, (_, i) => T0 + i * 3_600_000);
    await repos.results.writeBatch(hours.map((at) => write(gone.id, at)));
    await repos.results.writeBatch([write(kept.id, T0)]);
    const count = async (table: 'check_results' | 'rollup_minute' | 'rollup_hour', id: number) =>
      Number(
        (
          await database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('monitor_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('rollup_hour', gone.id)).toBe(40);
    // Batches of 7: several rounds per table, the last one partial.
    expect(await repos.monitors.remove(gone.id, 7)).toBe(true);
    for (const table of ['check_results', 'rollup_minute', 'rollup_hour'] as const) {
      expect(await count(table, gone.id)).toBe(0);
      expect(await count(table, kept.id)).toBe(1);
    }
  });

  it('writes a result with the state it led to, and a flip row in the same batch', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    const [inserted] = await repos.results.writeBatch([
      write(m.id, T0 + 5000, downRun(), {
        status: 'down',
        failures: 2,
        recent: [
          ['up', 10],
          ['down', null],
        ],
        flip: { from: 'up', to: 'down' },
      }),
    ]);
    expect(inserted?.result).toMatchObject({
      monitorId: m.id,
      outcome: 'down',
      errorCode: 'connect_refused',
      latencyMs: null,
      at: new Date(T0 + 5000).toISOString(),
    });
    const after = await repos.monitors.findById(m.id);
    expect(after).toMatchObject({
      state: { status: 'down', failures: 2 },
      statusChangedAt: T0 + 5000,
      lastCheck: {
        at: T0 + 5000,
        outcome: 'down',
        errorCode: 'connect_refused',
        errorMessage: 'Connection refused',
      },
      recent: [
        ['up', 10],
        ['down', null],
      ],
    });
  });

  it('keeps phase timings to the microsecond', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    const run = checkRun({
      latencyMs: 123.456,
      phases: { dns: 1.001, connect: 2.002, tls: 3.003, ttfb: 100.1, download: 17.35 },
      certExpiresAt: T0 + 90 * 86_400_000,
    });
    await repos.results.writeBatch([write(m.id, T0, run)]);
    const [r] = (await repos.results.page(m.id, 1)).items;
    expect(r).toMatchObject({
      latencyMs: 123.456,
      phases: { dns: 1.001, connect: 2.002, tls: 3.003, ttfb: 100.1, download: 17.35 },
      httpStatus: 200,
      responseSize: 42,
    });
    expect(r?.certExpiresAt).toBe(new Date(T0 + 90 * 86_400_000).toISOString());
  });

  it('pages results newest first with a cursor', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    await repos.results.writeBatch(
      Array.from({ length: 25 }, (_, i) => write(m.id, T0 + i * 1000)),
    );
    const first = await repos.results.page(m.id, 10);
    expect(first.items).toHaveLength(10);
    expect(first.items[0]?.at).toBe(new Date(T0 + 24_000).toISOString());
    const second = await repos.results.page(m.id, 10, first.nextCursor ?? undefined);
    const third = await repos.results.page(m.id, 10, second.nextCursor ?? undefined);
    expect(third.items).toHaveLength(5);
    expect(third.nextCursor).toBeNull();
    const all = [...first.items, ...second.items, ...third.items].map((r) => r.at);
    expect(new Set(all).size).toBe(25);
  });

  it('summarises a window from the rollups: counts by outcome, latencies of delivered checks only', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    await repos.results.writeBatch([
      write(m.id, T0, checkRun({ latencyMs: 10 })),
      write(m.id, T0 + 1000, checkRun({ latencyMs: 30 })),
      write(m.id, T0 + 2000, checkRun({ outcome: 'degraded', latencyMs: 900 })),
      write(m.id, T0 + 3000, downRun()),
      write(m.id, T0 - HOUR, checkRun({ latencyMs: 5 })),
    ]);
    const rows = await repos.rollups.read('minute', m.id, T0, T0 + 10_000);
    expect(summarizeRollups(rows, rows)).toEqual({
      checks: 4,
      up: 2,
      degraded: 1,
      down: 1,
      latency: {
        min: 10,
        avg: 313.333,
        max: 900,
        p50: expect.closeTo(30, 0) as number,
        p95: 900,
        p99: 900,
      },
    });
  });

  it('builds a bucketed series with mean phase timings from the rollups', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    const phases = (ttfb: number) => ({ dns: null, connect: 1, tls: null, ttfb, download: 1 });
    await repos.results.writeBatch([
      write(m.id, T0 + 1000, checkRun({ latencyMs: 12, phases: phases(10) })),
      write(m.id, T0 + 2000, checkRun({ latencyMs: 22, phases: phases(20) })),
      write(m.id, T0 + 61_000, downRun()),
    ]);
    const rows = await repos.rollups.read('minute', m.id, T0, T0 + 120_000);
    expect(rollupSeries(rows, 60_000)).toEqual([
      {
        t: T0,
        checks: 2,
        up: 2,
        degraded: 0,
        down: 0,
        latency: 17,
        dns: null,
        connect: 1,
        tls: null,
        ttfb: 15,
        download: 1,
      },
      {
        t: T0 + 60_000,
        checks: 1,
        up: 0,
        degraded: 0,
        down: 1,
        latency: null,
        dns: null,
        connect: null,
        tls: null,
        ttfb: null,
        download: null,
      },
    ]);
  });

  it('rolls results up per hour as they are written, across batches', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    await repos.results.writeBatch([write(m.id, T0 + 1000), write(m.id, T0 + 2000, downRun())]);
    await repos.results.writeBatch([
      write(m.id, T0 + 3000, checkRun({ outcome: 'degraded' })),
      write(m.id, T0 + HOUR + 1),
    ]);
    const now = T0 + HOUR + 10_000;
    const [u] = await repos.monitors.uptime24h(now, m.id);
    expect(u).toEqual({ monitorId: m.id, checks: 4, up: 2, degraded: 1 });
    expect(await repos.monitors.uptime24h(T0 + 30 * HOUR, m.id)).toEqual([]);
  });

  it('rejects a whole batch when one result belongs to no monitor, leaving nothing half-written', async () => {
    const m = await repos.monitors.insert(monitorInput(), T0);
    await expect(repos.results.writeBatch([write(m.id, T0), write(987_654, T0)])).rejects.toThrow();
    expect((await repos.results.page(m.id, 10)).items).toEqual([]);
    expect((await repos.monitors.findById(m.id))?.lastCheck).toBeNull();
  });
});
