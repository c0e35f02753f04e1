import type { Kysely, Migration } from 'kysely';

/**
 * A status page component may show each of its monitor's locations (issue 16 item 6, ADR 66).
 * Monthly uptime is a page option kept in `status_pages.show` (JSON): no column.
 */
export function statusComponentLocations(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('status_page_components')
        .addColumn('show_locations', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
