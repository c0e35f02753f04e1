import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * People as escalation targets (issue 18 item 1, ADR 60). `contact_methods`: a person's own
 * ways to be reached, secrets sealed, usable once `verified_at` is set by the code sent through
 * it (only the code's hash is stored). Deliveries to a person carry `contact_method_id` instead
 * of a channel; an escalation records the people and contact methods it reached, so the
 * recovery reaches them too.
 */
export function contactMethods(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('contact_methods')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
        // JSON: the kind's settings without secrets.
        .addColumn('config', 'text', (c) => c.notNull())
        // Sealed JSON of the kind's secrets (instance key); null when it has none.
        .addColumn('secrets', 'text')
        .addColumn('verified_at', 'bigint')
        // SHA-256 of the pending 6-digit code, its expiry and the failed tries against it.
        .addColumn('code_hash', 'text')
        .addColumn('code_sent_at', 'bigint')
        .addColumn('code_expires_at', 'bigint')
        .addColumn('code_tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('contact_methods_user')
        .on('contact_methods')
        .columns(['user_id', 'id'])
        .execute();
      // No foreign key: a delivery's history outlives the method (the dispatcher fails it).
      await db.schema.alterTable('deliveries').addColumn('contact_method_id', 'integer').execute();
      await db.schema
        .alterTable('escalations')
        .addColumn('notified_users', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('escalations')
        .addColumn('notified_contacts', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('escalations')
        .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    },
  };
}
