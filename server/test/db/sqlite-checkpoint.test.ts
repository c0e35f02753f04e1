import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { testTarget, type TestTarget } from '../support/engines.js';

/** SQLite's WAL is folded into the database by a worker thread, never by the thread that commits. */
describe('SQLite checkpoints in the background', () => {
  let target: TestTarget;
  let database: Database;
  let file: string;

  beforeAll(async () => {
    target = await testTarget('sqlite');
    if (target.target.kind !== 'sqlite') throw new Error('sqlite expected');
    file = target.target.file;
    database = await openDatabase(target.target);
  });
  afterAll(async () => {
    await database.close();
    await target.cleanup();
  });

  it('commits leave pages in the WAL, and the worker moves them into the database file', async () => {
    await sql`create table filler (id integer primary key, v text)`.execute(database.db);
    const before = fs.statSync(file).size;
    // ~4 MB: past the 1,000 pages at which the committing connection would checkpoint itself.
    for (let batch = 0; batch < 20; batch += 1) {
      await database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 50; i += 1) {
          await sql`insert into filler (v) values (${'x'.repeat(4000)})`.execute(trx);
        }
      });
    }
    // The commits themselves did not checkpoint: the data is still in the WAL.
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(4_000_000);
    expect(fs.statSync(file).size).toBeLessThan(before + 1_000_000);
    // Within a few ticks of the worker it is in the database file.
    await expect
      .poll(() => fs.statSync(file).size, { timeout: 10_000, interval: 200 })
      .toBeGreaterThan(before + 4_000_000);
  });

  it('on close the WAL is folded in and truncated, so the file stands alone', async () => {
    const other = await testTarget('sqlite');
    if (other.target.kind !== 'sqlite') throw new Error('sqlite expected');
    const db = await openDatabase(other.target);
    await sql`create table t (v text)`.execute(db.db);
    await sql`insert into t values ('kept')`.execute(db.db);
    await db.close();
    const wal = `${other.target.file}-wal`;
    expect(fs.existsSync(wal) ? fs.statSync(wal).size : 0).toBe(0);
    const again = await openDatabase(other.target);
    const rows = await sql<{ v: string }>`select v from t`.execute(again.db);
    expect(rows.rows).toEqual([{ v: 'kept' }]);
    await again.close();
    await other.cleanup();
  });
});
