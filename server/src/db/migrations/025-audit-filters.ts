import type { Kysely, Migration } from 'kysely';

/**
 * The audit log is read by person and by action, newest first (issue 17, ADR 37): an index for
 * each, ending in the id the pages are cut at, so a rare person or action is not a full scan.
 */
export function auditFilters(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('audit_events_actor')
        .on('audit_events')
        .columns(['actor_type', 'actor_id', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_events_action')
        .on('audit_events')
        .columns(['action', 'id'])
        .execute();
    },
  };
}
