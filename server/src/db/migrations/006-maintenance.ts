import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Maintenance windows (issue item 5). Scope and schedule are JSON: a window names at most a
 * thousand monitors and is always read whole, and a schedule's shape differs by kind.
 */
export function maintenance(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('maintenance_windows')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('schedule', 'text', (c) => c.notNull())
        .addColumn('cancelled_at', ms)
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('updated_at', ms, (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('updated_by', 'text')
        .execute();
    },
  };
}
