import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * What browser checks measured, one row per result of a browser monitor, so result rows stay
 * small for every other type. The screenshot is kept for failures and the latest success only
 * (retention trims older ones); the row goes with its result.
 */
export function browserEvidence(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('browser_runs')
        .addColumn('result_id', 'bigint', (c) =>
          c.primaryKey().references('check_results.id').onDelete('cascade'),
        )
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('outcome', 'smallint', (c) => c.notNull())
        .addColumn('measurements', 'text', (c) => c.notNull())
        .addColumn('screenshot', engine === 'sqlite' ? 'blob' : 'bytea')
        .execute();
      await db.schema
        .createIndex('browser_runs_monitor_result')
        .on('browser_runs')
        .columns(['monitor_id', 'result_id'])
        .execute();
    },
  };
}
