import type { Kysely, Migration } from 'kysely';

/**
 * The zone a status page names its times in when the visitor's browser runs no script (issue
 * 17, ADR 36). Existing pages keep UTC, which is what they showed before.
 */
export function statusPageTimeZone(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('status_pages')
        .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
        .execute();
    },
  };
}
