import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Merged latency sketches of runs of day rollups (issue 20, ADR 75): what a report merged once
 * is read by every later report, in any process and after a restart. A row is a derived copy,
 * trusted only while its fingerprint matches the days it came from, so no write path touches
 * it; it is left out of backups and goes with its monitor.
 */
export function runSketches(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      let t = db.schema
        .createTable('rollup_run_sketches')
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('run_from', 'bigint', (c) => c.notNull())
        .addColumn('run_to', 'bigint', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('sketch', engine === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
        .addPrimaryKeyConstraint('rollup_run_sketches_pk', ['monitor_id', 'run_from', 'run_to']);
      // Read by (monitor, run) only, like the rollups it summarises.
      if (engine === 'sqlite') t = t.modifyEnd(sql`without rowid`);
      await t.execute();
    },
  };
}
