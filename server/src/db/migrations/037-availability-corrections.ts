import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Corrections (issue 20, ADR 54): a period an editor leaves out of a monitor's availability
 * (a false positive, a planned test), with the reason reports list. Deleting the monitor
 * drops them; reads are by monitor and time.
 */
export function availabilityCorrections(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('availability_corrections')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('starts_at', 'bigint', (c) => c.notNull())
        .addColumn('ends_at', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('availability_corrections_monitor')
        .on('availability_corrections')
        .columns(['monitor_id', 'starts_at'])
        .execute();
    },
  };
}
