import type { Kysely, Migration } from 'kysely';

/** The last TOTP step accepted per person, so a code can't be used twice (replay guard). */
export function totpLastStep(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
    },
  };
}
