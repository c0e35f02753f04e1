import type { Kysely, Migration } from 'kysely';

/**
 * Rounds (ADR: deterministic rounds and exactly-once effects): a result carries the round it
 * belongs to; a monitor remembers the last round and attempt it recorded, which the result
 * write's guard compares so a second result for the same round changes nothing; a delivery
 * carries an idempotency key, unique, so the same alert is never queued twice. Old rows keep
 * nulls: their results predate rounds, and a monitor without a last round takes any result.
 */
export function rounds(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('check_results').addColumn('round', 'bigint').execute();
      // One column per statement: SQLite adds a single column per ALTER TABLE.
      for (const [name, type] of [
        ['last_round', 'bigint'],
        ['last_round_due', 'bigint'],
        ['last_attempt', 'integer'],
      ] as const) {
        await db.schema.alterTable('monitors').addColumn(name, type).execute();
      }
      await db.schema.alterTable('deliveries').addColumn('idempotency_key', 'text').execute();
      // Nulls (subscriber notices, rows queued before this migration) never collide.
      await db.schema
        .createIndex('deliveries_idempotency_key')
        .unique()
        .on('deliveries')
        .column('idempotency_key')
        .execute();
    },
  };
}
