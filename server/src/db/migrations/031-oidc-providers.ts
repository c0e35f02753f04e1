import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * OpenID Connect sign-in (issue 21, ADR 48). `oidc_providers`: one row per configured provider,
 * its client secret sealed with the instance key, mappings and domains as JSON.
 * `oidc_identities`: which account a provider's subject is, linked once through a verified
 * email. `oidc_flows`: a started sign-in (state, nonce, sealed PKCE verifier), found by the hash
 * of the browser's flow cookie and spent on the callback.
 */
export function oidcProviders(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oidc_providers')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_secret', 'text')
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('email_claim', 'text', (c) => c.notNull())
        .addColumn('name_claim', 'text', (c) => c.notNull())
        .addColumn('groups_claim', 'text')
        .addColumn('default_role', 'text', (c) => c.notNull())
        .addColumn('sign_up', 'text', (c) => c.notNull())
        .addColumn('role_mappings', 'text', (c) => c.notNull())
        .addColumn('allowed_domains', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('oidc_identities')
        .addColumn('provider_id', 'integer', (c) =>
          c.notNull().references('oidc_providers.id').onDelete('cascade'),
        )
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('oidc_identities_pk', ['provider_id', 'subject'])
        .execute();
      await db.schema
        .createIndex('oidc_identities_user')
        .on('oidc_identities')
        .column('user_id')
        .execute();
      await db.schema
        .createTable('oidc_flows')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'integer', (c) =>
          c.notNull().references('oidc_providers.id').onDelete('cascade'),
        )
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('return_to', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
