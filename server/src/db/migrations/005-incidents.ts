import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/** Incidents, their timeline and the monitors they affect (issue: incidents). */
export function incidents(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('incidents')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        // The monitor whose outage opened it; deleting the monitor keeps the incident.
        .addColumn('monitor_id', 'integer', (c) => c.references('monitors.id').onDelete('set null'))
        .addColumn('automatic', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('started_at', ms, (c) => c.notNull())
        .addColumn('resolved_at', ms)
        .addColumn('cause_at', ms)
        .addColumn('cause_code', 'text')
        .addColumn('cause_message', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('updated_at', ms, (c) => c.notNull())
        .execute();
      // "The open incident of monitor X": every down check outside maintenance asks it.
      await db.schema
        .createIndex('incidents_monitor_resolved')
        .on('incidents')
        .columns(['monitor_id', 'resolved_at'])
        .execute();
      // The list: open ones first, then by start.
      await db.schema
        .createIndex('incidents_started')
        .on('incidents')
        .columns(['started_at', 'id'])
        .execute();

      await db.schema
        .createTable('incident_monitors')
        .addColumn('incident_id', 'integer', (c) =>
          c.notNull().references('incidents.id').onDelete('cascade'),
        )
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('incident_monitors_pk', ['incident_id', 'monitor_id'])
        .execute();
      await db.schema
        .createIndex('incident_monitors_monitor')
        .on('incident_monitors')
        .columns(['monitor_id', 'incident_id'])
        .execute();

      await db.schema
        .createTable('incident_updates')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('incident_id', 'integer', (c) =>
          c.notNull().references('incidents.id').onDelete('cascade'),
        )
        .addColumn('at', ms, (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('public', 'integer', (c) => c.notNull())
        .addColumn('automatic', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('author_label', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('incident_updates_incident_at')
        .on('incident_updates')
        .columns(['incident_id', 'at'])
        .execute();
    },
  };
}
