import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Service level objectives (issue 20, ADR 52). The subject is one of a monitor, a tag or a
 * status page component (page + monitor); deleting the monitor or page deletes its SLOs.
 * `alert_state` is the burn-rate alert's open severity (null: none open), so an alert fires
 * once per breach across restarts and processes.
 */
export function slos(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('slos')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('subject_kind', 'text', (c) => c.notNull())
        .addColumn('monitor_id', 'integer', (c) => c.references('monitors.id').onDelete('cascade'))
        .addColumn('tag', 'text')
        .addColumn('status_page_id', 'integer', (c) =>
          c.references('status_pages.id').onDelete('cascade'),
        )
        .addColumn('target', 'double precision', (c) => c.notNull())
        .addColumn('window', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('count_degraded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('exclude_maintenance', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('latency_percent', 'double precision')
        .addColumn('latency_threshold_ms', 'integer')
        .addColumn('alerts', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('alert_state', 'text')
        .addColumn('alert_since', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('slos_monitor').on('slos').column('monitor_id').execute();
    },
  };
}
