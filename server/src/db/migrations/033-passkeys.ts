import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Passkeys (issue 21, ADR 50): each WebAuthn credential a person registered, with its public
 * key and signature counter. Nothing here is secret: a credential signs with a key that never
 * leaves the authenticator.
 */
export function passkeys(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('passkeys')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        /** The credential id, base64url, as the browser names it at sign-in. */
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        /** The COSE public key, base64url. */
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', ms, (c) => c.notNull().defaultTo(0))
        /** JSON array of transports (`internal`, `usb`, `hybrid`…), hints for the browser. */
        .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('last_used_at', ms)
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
    },
  };
}
