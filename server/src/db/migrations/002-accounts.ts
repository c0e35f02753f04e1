import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/** Users, sessions, API keys, login throttling and the audit log (issue: accounts). */
export function accounts(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('totp_secret', 'text')
        .addColumn('totp_pending_secret', 'text')
        .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('recovery_codes', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('updated_at', ms, (c) => c.notNull())
        .addColumn('last_login_at', ms)
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('last_seen_at', ms, (c) => c.notNull())
        .addColumn('expires_at', ms, (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('login_challenges')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('expires_at', ms, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('expires_at', ms)
        .addColumn('last_used_at', ms)
        .addColumn('revoked_at', ms)
        .execute();

      await db.schema
        .createTable('login_failures')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('at', ms, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_failures_subject_at')
        .on('login_failures')
        .columns(['subject', 'at'])
        .execute();

      await db.schema
        .createTable('audit_events')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('at', ms, (c) => c.notNull())
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('actor_label', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text')
        .addColumn('target_id', 'text')
        .addColumn('ip', 'text')
        .addColumn('summary', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
    },
  };
}
