import type { Kysely, Migration } from 'kysely';

/**
 * Whether an incident's title is still the one Pagewatch wrote ("<monitor name> is down"):
 * such a title names the monitor as the team knows it, so status pages show their own
 * display names instead. A person's edit clears it. Existing automatic incidents count as
 * never edited: the page then errs on the side of not showing an internal name.
 */
export function incidentAutoTitle(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('incidents')
        .addColumn('title_auto', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.updateTable('incidents').set({ title_auto: 1 }).where('automatic', '=', 1).execute();
    },
  };
}
