import type { Kysely, Migration } from 'kysely';

/**
 * Per-person quiet hours and per-tag policies (issue 18 items 2 and 5, ADR 60, 61).
 * `user_quiet_hours`: a person's windows as JSON, read when a warning is queued for them.
 * `tag_policies`: which escalation policy monitors with a tag use when they name none.
 */
export function quietHoursAndTagPolicies(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_quiet_hours')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('windows', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('tag_policies')
        .addColumn('tag', 'text', (c) => c.primaryKey())
        .addColumn('policy_id', 'integer', (c) =>
          c.notNull().references('escalation_policies.id').onDelete('cascade'),
        )
        .execute();
    },
  };
}
