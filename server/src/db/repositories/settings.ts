import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** Settings groups as stored: JSON per group name (ADR 27); the service parses them. */
export function settingsRepository(db: Kysely<DB>) {
  return {
    /** Every stored group, its value parsed from JSON; a group never saved is absent. */
    async all(): Promise<Map<string, unknown>> {
      const rows = await db.selectFrom('settings').select(['name', 'value']).execute();
      return new Map(rows.map((r) => [r.name, JSON.parse(r.value) as unknown]));
    },

    /** Stores these groups whole, in one transaction. */
    async put(groups: Readonly<Record<string, unknown>>, at: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const [name, value] of Object.entries(groups)) {
          const json = JSON.stringify(value);
          await trx
            .insertInto('settings')
            .values({ name, value: json, updated_at: at })
            .onConflict((oc) => oc.column('name').doUpdateSet({ value: json, updated_at: at }))
            .execute();
        }
      });
    },

    /**
     * Makes `toId` (an enabled admin) the owner and `fromId` (the owner) an admin, both or
     * neither: a concurrent change of either row leaves them as they were.
     */
    async transferOwnership(fromId: number, toId: number, at: number): Promise<TransferOutcome> {
      try {
        return await db.transaction().execute(async (trx) => {
          const promoted = await trx
            .updateTable('users')
            .set({ role: 'owner', updated_at: at })
            .where('id', '=', toId)
            .where('role', '=', 'admin')
            .where('disabled', '=', 0)
            .executeTakeFirst();
          if (Number(promoted.numUpdatedRows) !== 1) throw new Refused('not_admin');
          const demoted = await trx
            .updateTable('users')
            .set({ role: 'admin', updated_at: at })
            .where('id', '=', fromId)
            .where('role', '=', 'owner')
            .executeTakeFirst();
          if (Number(demoted.numUpdatedRows) !== 1) throw new Refused('not_owner');
          return 'done' as const;
        });
      } catch (err) {
        // Thrown inside, so the transaction rolled back whatever it had changed.
        if (err instanceof Refused) return err.outcome;
        throw err;
      }
    },
  };
}

export type TransferOutcome = 'done' | 'not_owner' | 'not_admin';

class Refused extends Error {
  constructor(readonly outcome: Exclude<TransferOutcome, 'done'>) {
    super(outcome);
  }
}

export type SettingsRepository = ReturnType<typeof settingsRepository>;
