import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Report delivery (issue 20 item 3, ADR 65): monthly report emails and signed customer links.
 * `report_schedules` says what to send and to whom; `report_deliveries` is its outbox, one row
 * per schedule, month and recipient (the unique key makes a month go out once however often
 * the job looks). `report_links` keeps only the SHA-256 of a link's token.
 */
export function reportDelivery(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('report_schedules')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('subject_kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('degraded_is_down', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('formats', 'text', (c) => c.notNull())
        .addColumn('user_ids', 'text', (c) => c.notNull())
        .addColumn('emails', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        // The last month (YYYY-MM) whose deliveries were queued; months after it are due.
        .addColumn('queued_through', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('report_deliveries')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('schedule_id', 'integer', (c) =>
          c.notNull().references('report_schedules.id').onDelete('cascade'),
        )
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('gave_up_at', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('report_deliveries_once', ['schedule_id', 'period', 'recipient'])
        .execute();
      await db.schema
        .createIndex('report_deliveries_pending')
        .on('report_deliveries')
        .columns(['sent_at', 'gave_up_at', 'next_attempt_at'])
        .execute();
      await db.schema
        .createTable('report_links')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('subject_kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        // `last_month` (rolling), `month`, `quarter` or `custom` with period or from/to.
        .addColumn('range_kind', 'text', (c) => c.notNull())
        .addColumn('period', 'text')
        .addColumn('range_from', 'text')
        .addColumn('range_to', 'text')
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('degraded_is_down', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_viewed_at', 'bigint')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
