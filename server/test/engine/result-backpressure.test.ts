import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { ResultWriter } from '../../src/engine/result-writer.js';
import { engines, openTestDatabase, postgresUrl, testTarget } from '../support/engines.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

function write(monitorId: number, i: number, flip: ResultWrite['flip'] = null): ResultWrite {
  const run = flip?.to === 'down' ? downRun() : checkRun();
  return {
    monitorId,
    at: T0 + i * 1000,
    run,
    status: flip?.to ?? 'up',
    failures: 0,
    recent: [],
    flip,
  };
}

async function storedAts(database: Database, monitorId: number): Promise<number[]> {
  const rows = await database.db
    .selectFrom('check_results')
    .select('at')
    .where('monitor_id', '=', monitorId)
    .orderBy('at')
    .execute();
  return rows.map((r) => Number(r.at) - T0);
}

describe.each(engines)(
  'result writes when the database is slower than the checks (%s)',
  (engine) => {
    let handle: Awaited<ReturnType<typeof openTestDatabase>>;
    let repos: Repositories;

    beforeAll(async () => {
      handle = await openTestDatabase(engine);
      repos = repositories(handle.database);
    });
    afterAll(async () => handle.cleanup());

    it('holds at most the bound, drops the oldest plain results first and keeps every flip', async () => {
      const { id } = await repos.monitors.insert(monitorInput(), T0);
      let drops = 0;
      const writer = new ResultWriter(repos.results, () => {}, pino({ level: 'silent' }), {
        maxQueue: 10,
        maxBatch: 100,
        onDrop: () => (drops += 1),
      });
      // A flip early in the queue: incidents and alerts hang on it, so it must survive.
      writer.enqueue(write(id, 0, { from: 'pending', to: 'down' }));
      for (let i = 1; i < 25; i += 1) writer.enqueue(write(id, i));
      expect(writer.pending).toBe(10);
      expect(drops).toBe(15);
      await writer.flush();
      // The flip and the newest nine plain results were written.
      expect(await storedAts(handle.database, id)).toEqual([
        0,
        ...range(16, 25).map((s) => s * 1000),
      ]);
    });
  },
);

describe.runIf(postgresUrl)('checks keep their schedule while PostgreSQL is locked', () => {
  let target: Awaited<ReturnType<typeof testTarget>>;
  let database: Database;
  let repos: Repositories;
  let locker: pg.Client;

  beforeAll(async () => {
    target = await testTarget('postgres');
    database = await openDatabase(target.target);
    repos = repositories(database);
    locker = new pg.Client({ connectionString: postgresUrl });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await database.close();
    await target.cleanup();
  });

  it('queues results without waiting, then writes them all once the lock goes', async () => {
    const { id } = await repos.monitors.insert(monitorInput(), T0);
    const writer = new ResultWriter(repos.results, () => {}, pino({ level: 'silent' }), {
      maxBatch: 5,
      flushMs: 5,
    });
    const schema = target.target.kind === 'postgres' ? target.target.schema : undefined;
    await locker.query('begin');
    await locker.query(`lock table ${schema}.check_results in access exclusive mode`);
    for (let i = 0; i < 20; i += 1) {
      // enqueue returns at once: the scheduler that calls it never waits for the database.
      writer.enqueue(write(id, i));
      await new Promise((r) => setTimeout(r, 10));
    }
    // The first batch is stuck behind the lock; the rest wait in memory.
    expect(writer.pending).toBeGreaterThanOrEqual(10);
    const flushed = writer.flush();
    await locker.query('commit');
    await flushed;
    expect(writer.pending).toBe(0);
    expect(await storedAts(database, id)).toEqual(range(0, 20).map((s) => s * 1000));
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
