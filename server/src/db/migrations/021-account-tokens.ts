import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Links sent to people (issue 17, ADR 34): password resets, invitations and email changes, each
 * a row with the token's hash only; and a tombstone per deleted person, so the audit log keeps
 * naming who did what after their account is gone.
 */
export function accountTokens(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('account_tokens')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        /** `password_reset`, `invitation` or `email_change`. */
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        /** Whose password or email; null for an invitation (no account yet). */
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        /** The invited address, or the new address of an email change. */
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by_label', 'text', (c) => c.notNull())
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('expires_at', ms, (c) => c.notNull())
        .addColumn('used_at', ms)
        .addColumn('revoked_at', ms)
        .execute();
      await db.schema
        .createIndex('account_tokens_kind_email')
        .on('account_tokens')
        .columns(['kind', 'email'])
        .execute();
      await db.schema
        .createIndex('account_tokens_user')
        .on('account_tokens')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('deleted_users')
        .addColumn('user_id', 'integer', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('deleted_at', ms, (c) => c.notNull())
        .execute();
    },
  };
}
