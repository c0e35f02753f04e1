import type { Kysely, Migration } from 'kysely';

/**
 * Delivery safety (issue 18 item 9, ADR 62): a channel's fallback channel and failure
 * threshold, and its health — consecutive given-up deliveries and the last error. No foreign
 * key on the fallback: removing a channel clears the references explicitly (both engines).
 */
export function channelHealth(): Migration {
  return {
    async up(db: Kysely<any>) {
      const add = (name: string, type: 'integer' | 'text', def?: number) =>
        db.schema
          .alterTable('notification_channels')
          .addColumn(name, type, (c) => (def === undefined ? c : c.notNull().defaultTo(def)))
          .execute();
      await add('fallback_channel_id', 'integer');
      await add('fail_threshold', 'integer', 3);
      await add('consecutive_failures', 'integer', 0);
      await add('last_error', 'text');
    },
  };
}
