import type { Kysely, Migration } from 'kysely';

/** The resource tables a configuration document describes (issue 15). */
export const CONFIG_TABLES = [
  'monitors',
  'notification_channels',
  'status_pages',
  'maintenance_windows',
] as const;

/**
 * Configuration as code (issue 15, ADR 28): each resource remembers its stable key in config
 * files (unique per kind; null until exported or applied) and whether the last apply manages
 * it, which makes it read-only in the UI until detached.
 */
export function configKeys(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of CONFIG_TABLES) {
        await db.schema.alterTable(table).addColumn('config_key', 'text').execute();
        await db.schema
          .alterTable(table)
          .addColumn('managed_by_config', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        // NULLs are distinct in both engines: resources without a key never collide.
        await db.schema
          .createIndex(`${table}_config_key`)
          .on(table)
          .column('config_key')
          .unique()
          .execute();
      }
    },
  };
}
