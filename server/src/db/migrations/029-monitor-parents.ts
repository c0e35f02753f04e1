import type { Kysely, Migration } from 'kysely';

/**
 * Monitor dependencies (issue 18, ADR 41): a child's alerts are held while a parent is down.
 * Both ends cascade, so deleting a monitor drops its links either way; `parent_id` is indexed
 * for "who depends on this monitor".
 */
export function monitorParents(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('monitor_parents')
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('parent_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('monitor_parents_pk', ['monitor_id', 'parent_id'])
        .execute();
      await db.schema
        .createIndex('monitor_parents_parent')
        .on('monitor_parents')
        .columns(['parent_id', 'monitor_id'])
        .execute();
    },
  };
}
