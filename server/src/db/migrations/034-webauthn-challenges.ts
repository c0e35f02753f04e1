import type { Kysely, Migration } from 'kysely';

/**
 * WebAuthn challenges (ADR 50), kept server-side so each is used once and lapses in minutes:
 * a row per ceremony started, keyed by the challenge's hash, deleted when it is answered.
 */
export function webauthnChallenges(): Migration {
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webauthn_challenges')
        /** SHA-256 of the base64url challenge. */
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        /** `register`, `sign_in` or `second_factor`. */
        .addColumn('purpose', 'text', (c) => c.notNull())
        /** Whose ceremony; null for a passwordless sign-in (the passkey names its person). */
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        /** For `second_factor`: the hash of the password step's challenge it completes. */
        .addColumn('login_challenge_hash', 'text')
        .addColumn('expires_at', ms, (c) => c.notNull())
        .execute();
    },
  };
}
