import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Notification channels, which monitors alert through them, the delivery outbox and each
 * monitor's alert rules and alert state (issue 5). Channel settings are JSON: their shape
 * differs by kind and they are always read whole; secrets are sealed with the instance key.
 */
export function notifications(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('notification_channels')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('secrets', 'text')
        .addColumn('template', 'text')
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('updated_at', ms, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('monitor_channels')
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('channel_id', 'integer', (c) =>
          c.notNull().references('notification_channels.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('monitor_channels_pk', ['monitor_id', 'channel_id'])
        .execute();
      await db.schema
        .createIndex('monitor_channels_channel')
        .on('monitor_channels')
        .columns(['channel_id', 'monitor_id'])
        .execute();

      // The outbox: one row per (event, recipient), written in the transaction of the change.
      await db.schema
        .createTable('deliveries')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        // A deleted channel takes its undelivered alerts with it.
        .addColumn('channel_id', 'integer', (c) =>
          c.references('notification_channels.id').onDelete('cascade'),
        )
        // Set for status-page subscriber notices instead of a channel (issue 6).
        .addColumn('subscriber_id', 'integer')
        // No foreign key: the history of a deleted monitor's alerts stays readable.
        .addColumn('monitor_id', 'integer')
        // Deliveries with the same key arrive in order ("m:<monitor>", "i:<incident>", ...).
        .addColumn('order_key', 'text', (c) => c.notNull())
        .addColumn('event_kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', ms)
        // Compare-and-set claim: a worker owns a delivery until this time.
        .addColumn('lease_until', ms)
        .addColumn('leased_by', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('sent_at', ms)
        .execute();
      await db.schema
        .createIndex('deliveries_pending')
        .on('deliveries')
        .columns(['state', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('deliveries_channel')
        .on('deliveries')
        .columns(['channel_id', 'id'])
        .execute();
      await db.schema
        .createIndex('deliveries_monitor')
        .on('deliveries')
        .columns(['monitor_id', 'id'])
        .execute();

      // Null: the defaults of contract AlertRules / a monitor that never alerted.
      for (const name of ['alert_rules', 'alert_state'] as const) {
        await db.schema.alterTable('monitors').addColumn(name, 'text').execute();
      }
    },
  };
}
