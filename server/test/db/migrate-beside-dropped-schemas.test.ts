import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { postgresUrl, testTarget } from '../support/engines.js';

// Parallel test runs and several deployments share one PostgreSQL database, each in a schema;
// Kysely's introspection of every schema used to fail while another one was dropped.
describe.runIf(postgresUrl)('migrations in one schema of a shared PostgreSQL database', () => {
  it('succeed while other schemas are created and dropped all the time', async () => {
    let stop = false;
    const churn = async (n: number) => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      try {
        for (let i = 0; !stop && i < 5_000; i++) {
          const other = `pw_churn_${process.pid}_${n}_${i}`;
          await c.query(`create schema ${other}; create table ${other}.t (id serial primary key)`);
          await c.query(`drop schema ${other} cascade`);
        }
      } finally {
        await c.end();
      }
    };
    const churning = Promise.all([churn(1), churn(2)]);
    const failures: string[] = [];
    try {
      for (let k = 0; k < 12; k++) {
        const t = await testTarget('postgres');
        try {
          await (await openDatabase(t.target)).close();
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await t.cleanup();
        }
      }
    } finally {
      stop = true;
      await churning;
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
