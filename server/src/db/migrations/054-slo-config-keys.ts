import type { Kysely, Migration } from 'kysely';

/**
 * SLOs in configuration files (issue 20, ADR 74): like the other managed resources (migrations
 * 018 and 020), each SLO remembers its key in the files (unique; null until exported or
 * applied), whether the last apply manages it, and what that apply wrote, for drift.
 */
export function sloConfigKeys(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('slos').addColumn('config_key', 'text').execute();
      await db.schema
        .alterTable('slos')
        .addColumn('managed_by_config', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('slos').addColumn('config_applied', 'text').execute();
      // NULLs are distinct in both engines: SLOs without a key never collide.
      await db.schema
        .createIndex('slos_config_key')
        .on('slos')
        .column('config_key')
        .unique()
        .execute();
    },
  };
}
