import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Quorum across locations (issue 16, ADR 58). `monitor_locations`: where a monitor is checked
 * (no rows: `local` only); `monitors.location_quorum`: k of "down when k locations fail" (null:
 * a majority of those that reported). A result records its location; a location's result also
 * carries its round on the server's grid, unique per (monitor, location), so a retried or
 * replayed batch is counted once. The local scheduler's own results keep the old rows (their
 * round guard lives on the monitor), so the index is partial and costs them nothing.
 * `monitor_location_verdicts`: each location's latest live verdict, which the quorum reads.
 */
export function locationVerdicts(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('monitor_locations')
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('location_id', 'text', (c) =>
          c.notNull().references('locations.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('monitor_locations_pk', ['monitor_id', 'location_id'])
        .execute();
      await db.schema
        .createIndex('monitor_locations_location')
        .on('monitor_locations')
        .columns(['location_id', 'monitor_id'])
        .execute();
      await db.schema.alterTable('monitors').addColumn('location_quorum', 'integer').execute();
      await db.schema
        .alterTable('check_results')
        .addColumn('location_id', 'text', (c) => c.notNull().defaultTo('local'))
        .execute();
      await db.schema.alterTable('check_results').addColumn('location_round', 'bigint').execute();
      await db.schema
        .createIndex('check_results_location_round')
        .unique()
        .on('check_results')
        .columns(['monitor_id', 'location_id', 'location_round'])
        .where(sql.ref('location_round'), 'is not', null)
        .execute();
      await db.schema
        .createTable('monitor_location_verdicts')
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('location_id', 'text', (c) =>
          c.notNull().references('locations.id').onDelete('cascade'),
        )
        .addColumn('round_at', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('latency_us', 'integer')
        .addColumn('checked_at', 'bigint', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addPrimaryKeyConstraint('monitor_location_verdicts_pk', ['monitor_id', 'location_id'])
        .execute();
    },
  };
}
