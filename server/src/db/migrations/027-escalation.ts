import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Escalation policies and the escalation of each outage under one (issue 18, ADR 39). The
 * escalation row is the durable timer: its `next_due_at` is what the escalation job reads,
 * and its (step, cycle) is the compare-and-set that lets exactly one process fire a step.
 */
export function escalation(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('escalation_policies')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('name', 'text', (c) => c.notNull())
        // JSON EscalationStep[]: always read and written whole.
        .addColumn('steps', 'text', (c) => c.notNull())
        .addColumn('repeat_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('updated_at', ms, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('escalations')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        // No foreign keys: an outage's history outlives its monitor and its policy.
        .addColumn('monitor_id', 'integer', (c) => c.notNull())
        .addColumn('policy_id', 'integer')
        // The DOWN alert's identity (monitor, round, attempt): one escalation per outage even
        // when two processes write the same result during a takeover.
        .addColumn('outage_key', 'text', (c) => c.notNull().unique())
        // The DOWN event as queued, re-sent by each later step.
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('started_at', ms, (c) => c.notNull())
        // The next step to fire (null: nothing left) and which run of the policy it is in.
        .addColumn('next_step', 'integer')
        .addColumn('cycle', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_due_at', ms)
        // JSON number[]: channels notified so far; the recovery goes to each of them.
        .addColumn('notified', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('acked_at', ms)
        .addColumn('acked_by', 'text')
        .addColumn('acked_via', 'text')
        .addColumn('resolved_at', ms)
        .execute();
      // The job reads due escalations; only running ones carry a due time.
      await db.schema
        .createIndex('escalations_due')
        .on('escalations')
        .columns(['next_due_at'])
        .execute();
      await db.schema
        .createIndex('escalations_monitor')
        .on('escalations')
        .columns(['monitor_id', 'id'])
        .execute();
    },
  };
}
