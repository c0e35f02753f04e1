import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { migrateTo, migrateToLatest, type MigrateOptions } from '../migrations/index.js';

/** The migrations applied to this database, in order; none for a database never opened. */
export async function appliedMigrations(database: Database): Promise<string[]> {
  const db = database.db as unknown as Kysely<any>;
  const exists =
    database.engine === 'postgres'
      ? (
          await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
            where table_schema = current_schema() and table_name = 'kysely_migration'`.execute(db)
        ).rows[0]?.n
      : (
          await sql<{ n: number }>`select count(*) as n from sqlite_master
            where type = 'table' and name = 'kysely_migration'`.execute(db)
        ).rows[0]?.n;
  if (!exists) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration
    order by name`.execute(db);
  return rows.map((r) => r.name);
}

/** Migrates up to `name` (never down: the caller checked the database is not past it). */
export async function migrateUpTo(database: Database, name: string): Promise<void> {
  await migrateTo(database.db, database.engine, name);
}

export async function migrateRestored(database: Database, options: MigrateOptions): Promise<void> {
  await migrateToLatest(database.db, database.engine, options);
}
