import type { Kysely, Migration } from 'kysely';

/** Frozen as of this migration: a later change of the partition count needs its own. */
const PARTITIONS = 1024;

/**
 * Cluster coordination (issue 14, ADR 21): the processes alive, the partition leases that
 * share monitors between schedulers, and named singleton leases for once-per-deployment jobs.
 * Every time is the database's clock in epoch ms; `epoch` is the fencing token, bumped at
 * each acquisition.
 */
export function cluster(): Migration {
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('cluster_members')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('capacity', 'integer', (c) => c.notNull())
        // The process's PAGEWATCH_ROLES, comma-separated (only schedulers take partitions).
        .addColumn('roles', 'text', (c) => c.notNull())
        .addColumn('started_at', ms, (c) => c.notNull())
        .addColumn('heartbeat_at', ms, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('cluster_members_heartbeat')
        .on('cluster_members')
        .column('heartbeat_at')
        .execute();

      await db.schema
        .createTable('cluster_partitions')
        // The partition number, 0 … 1023.
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('owner', 'text')
        .addColumn('epoch', ms, (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', ms, (c) => c.notNull().defaultTo(0))
        .addColumn('acquired_at', ms)
        .addColumn('previous_owner', 'text')
        .execute();
      await db.schema
        .createIndex('cluster_partitions_owner')
        .on('cluster_partitions')
        .columns(['owner', 'id'])
        .execute();
      const rows = Array.from({ length: PARTITIONS }, (_, id) => ({ id }));
      for (let i = 0; i < rows.length; i += 256) {
        await db
          .insertInto('cluster_partitions')
          .values(rows.slice(i, i + 256))
          .execute();
      }

      await db.schema
        .createTable('cluster_singletons')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text')
        .addColumn('epoch', ms, (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', ms, (c) => c.notNull().defaultTo(0))
        .addColumn('acquired_at', ms)
        .addColumn('previous_owner', 'text')
        .execute();
    },
  };
}
