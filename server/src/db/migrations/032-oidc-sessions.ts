import type { Kysely, Migration } from 'kysely';

/**
 * Sessions begun through OIDC (issue 21, ADR 49): the provider and its sealed ID token, kept
 * for RP-initiated logout (`id_token_hint`). Apart from `sessions` so password sessions and
 * the session code stay as they are; a row outliving its session is removed at its expiry.
 */
export function oidcSessions(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oidc_sessions')
        .addColumn('session_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'integer', (c) =>
          c.notNull().references('oidc_providers.id').onDelete('cascade'),
        )
        .addColumn('id_token', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
