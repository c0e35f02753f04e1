import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/** On-call schedules and their overrides (issue 18 item 4, ADR 39). */
export function oncall(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oncall_schedules')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        // JSON RotationLayerInput[]: read and written whole, later layers win.
        .addColumn('layers', 'text', (c) => c.notNull())
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('updated_at', ms, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('oncall_overrides')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('schedule_id', 'integer', (c) =>
          c.notNull().references('oncall_schedules.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('from_at', ms, (c) => c.notNull())
        .addColumn('to_at', ms, (c) => c.notNull())
        .addColumn('created_at', ms, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('oncall_overrides_schedule')
        .on('oncall_overrides')
        .columns(['schedule_id', 'from_at'])
        .execute();
    },
  };
}
