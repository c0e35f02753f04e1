import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { cachingStatements } from '../../src/db/sqlite-statement-cache.js';
import { testTarget, type TestTarget } from '../support/engines.js';

/**
 * Two processes on one SQLite file (PAGEWATCH_WORKERS, ADR 25): a transaction that reads and
 * then writes must not be broken by the other process committing in between.
 */
describe('SQLite transactions beside another writer', () => {
  let target: TestTarget;
  let database: Database;
  let other: SQLite.Database;

  beforeAll(async () => {
    target = await testTarget('sqlite');
    if (target.target.kind !== 'sqlite') throw new Error('sqlite expected');
    database = await openDatabase(target.target);
    await sql`create table counters (id integer primary key, n integer not null)`.execute(
      database.db,
    );
    await sql`insert into counters (id, n) values (1, 0)`.execute(database.db);
    // The other process's connection, impatient so the test does not wait out a long timeout.
    other = new SQLite(target.target.file);
    other.pragma('busy_timeout = 50');
  });
  afterAll(async () => {
    other.close();
    await database.close();
    await target.cleanup();
  });

  it('takes the write lock at BEGIN: a read-then-write transaction commits, the other writer waits its turn', async () => {
    let othersWriteInside: unknown = null;
    await database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select n from counters where id = 1`.execute(trx);
      // Another process tries to commit between our read and our write. A deferred BEGIN
      // would let it, and our write below would then fail with SQLITE_BUSY at once.
      try {
        other.prepare('update counters set n = n + 100 where id = 1').run();
      } catch (err) {
        othersWriteInside = err;
      }
      await sql`update counters set n = ${rows[0]!.n + 1} where id = 1`.execute(trx);
    });
    expect((othersWriteInside as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
    // Once we committed, the other writer goes through, and neither write is lost.
    other.prepare('update counters set n = n + 100 where id = 1').run();
    const { rows } = await sql<{ n: number }>`select n from counters where id = 1`.execute(
      database.db,
    );
    expect(rows[0]!.n).toBe(101);
  });

  it('waits for a write lock held by another connection on the event loop, not inside SQLite', async () => {
    // The checkpointer thread's TRUNCATE holds the write lock while it copies and syncs; on a
    // busy disk that took seconds. Held here for 300 ms by a connection in this very thread,
    // released by a timer: waiting inside SQLite (its busy timeout) would block the timer, and
    // the wait would end only in "database is locked".
    other.prepare('begin immediate').run();
    const release = setTimeout(() => other.prepare('commit').run(), 300);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 20);
    try {
      const started = Date.now();
      await database.db.transaction().execute(async (trx) => {
        await sql`update counters set n = n + 1 where id = 1`.execute(trx);
      });
      // And a lone write (outside a transaction) waits the same way.
      other.prepare('begin immediate').run();
      setTimeout(() => other.prepare('commit').run(), 200);
      await sql`update counters set n = n + 1 where id = 1`.execute(database.db);
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      // The event loop ran all along: the interval ticked through both waits.
      expect(ticks).toBeGreaterThanOrEqual(10);
    } finally {
      clearTimeout(release);
      clearInterval(ticker);
      if (other.inTransaction) other.prepare('rollback').run();
    }
    const { rows } = await sql<{ n: number }>`select n from counters where id = 1`.execute(
      database.db,
    );
    expect(rows[0]!.n).toBe(103);
  });

  it('keeps prepared statements by their SQL, and gives a fresh one while the kept one is iterated', () => {
    const native = new SQLite(':memory:');
    const cached = cachingStatements(native);
    native.exec('create table t (id integer primary key); insert into t values (1), (2)');
    const text = 'select id from t order by id';
    expect(cached.prepare(text)).toBe(cached.prepare(text));
    const seen: unknown[] = [];
    for (const row of cached.prepare(text).iterate([])) {
      // The kept statement is busy until this loop ends: the same text must still run.
      seen.push(row, cached.prepare(text).all([]));
    }
    expect(seen).toEqual([{ id: 1 }, [{ id: 1 }, { id: 2 }], { id: 2 }, [{ id: 1 }, { id: 2 }]]);
    cached.close();
  });
});
