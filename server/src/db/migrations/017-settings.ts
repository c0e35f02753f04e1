import type { Kysely, Migration } from 'kysely';

/**
 * Instance settings (issue 15, ADR 27): one row per group (`general`, `retention`, later
 * `backups`), its value the group's JSON as the contract parses it. A new group needs no
 * migration; a missing row means the group's defaults.
 */
export function settings(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
