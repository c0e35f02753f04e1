import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Backups made (issue 15, ADR 29): scheduled ones and downloads, with their size or why they
 * failed, so Settings → Backups and /metrics of any process show the last one.
 */
export function backupRuns(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('backup_runs')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('at', 'bigint', (c) => c.notNull())
        // `scheduled` (written into the folder) or `download` (the API's stream).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bigint')
        .addColumn('file', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('backup_runs_at').on('backup_runs').column('at').execute();
    },
  };
}
