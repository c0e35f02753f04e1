import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Alert grouping (issue 18 item 7, ADR 42). `monitor_grouping`: a monitor's chosen tag and
 * window. `alert_batches`: one open batch per (group, phase) — a partial unique index keeps it
 * to one in every process — due at the end of its window and flushed exactly once (the
 * compare-and-set on `flushed_at`). `alert_batch_items`: the events collected, keyed like the
 * outbox so a result written twice adds its event once.
 */
export function alertGroups(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('monitor_grouping')
        .addColumn('monitor_id', 'integer', (c) =>
          c.primaryKey().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('tag', 'text')
        .addColumn('window_s', 'integer', (c) => c.notNull().defaultTo(120))
        .execute();
      await db.schema
        .createTable('alert_batches')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('group_key', 'text', (c) => c.notNull())
        .addColumn('phase', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'bigint', (c) => c.notNull())
        .addColumn('due_at', 'bigint', (c) => c.notNull())
        .addColumn('items', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('flushed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('alert_batches_open')
        .on('alert_batches')
        .columns(['group_key', 'phase'])
        .unique()
        .where(sql.ref('flushed_at'), 'is', null)
        .execute();
      await db.schema
        .createIndex('alert_batches_due')
        .on('alert_batches')
        .columns(['flushed_at', 'due_at'])
        .execute();
      await db.schema
        .createTable('alert_batch_items')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('batch_id', 'bigint', (c) =>
          c.notNull().references('alert_batches.id').onDelete('cascade'),
        )
        .addColumn('monitor_id', 'integer', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('alert_batch_items_batch')
        .on('alert_batch_items')
        .columns(['batch_id', 'id'])
        .execute();
    },
  };
}
