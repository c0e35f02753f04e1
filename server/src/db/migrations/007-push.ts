import type { Kysely, Migration } from 'kysely';

/**
 * Push monitors: the token of the push URL (kept to show it again, looked up by its SHA-256
 * so the lookup leaks nothing about the token through timing), when the last ping came and
 * when a run signalled its start.
 */
export function push(): Migration {
  return {
    async up(db: Kysely<any>) {
      // One column per statement: SQLite adds a single column per ALTER TABLE.
      for (const [name, type] of [
        ['push_token', 'text'],
        ['push_token_hash', 'text'],
        ['last_ping_at', 'bigint'],
        ['push_started_at', 'bigint'],
      ] as const) {
        await db.schema.alterTable('monitors').addColumn(name, type).execute();
      }
      await db.schema
        .createIndex('monitors_push_token_hash')
        .unique()
        .on('monitors')
        .column('push_token_hash')
        .execute();
    },
  };
}
