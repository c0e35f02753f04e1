import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Any process serves any request (issue 14): a push ping or a check-now that reaches a process
 * which does not own the monitor's partition is handed to the owner through this table (the
 * owner claims its partitions' rows). Members also publish their load with the heartbeat, for
 * Settings → Cluster.
 */
export function checkRequests(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('check_requests')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        // partitionOf(monitor_id), so an owner claims its rows without knowing every monitor.
        .addColumn('partition', 'integer', (c) => c.notNull())
        // `check` (run now) or `ping` (a push result, in `run`).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('run', 'text')
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('check_requests_partition')
        .on('check_requests')
        .columns(['partition', 'id'])
        .execute();
      // JSON: what the member is doing (monitors scheduled, checks in flight, checks a minute).
      await db.schema.alterTable('cluster_members').addColumn('load', 'text').execute();
    },
  };
}
