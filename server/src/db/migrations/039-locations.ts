import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Locations and their probes (issue 16, ADR 56). `locations`: named pools of probes, with the
 * built-in scheduler as the row `local` (renameable, never deleted) and, while every probe of
 * a location is silent, when that began and the incident raised for it. `probes`: one row per
 * probe identity with what its last heartbeat said. `probe_tokens`: only hashes; a rotated
 * token keeps working until `expires_at` (the overlap), a revoked one never again.
 */
export function locations(engine: Engine): Migration {
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const auto = engine === 'sqlite';
  const real = engine === 'sqlite' ? ('real' as const) : ('double precision' as const);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('locations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('region', 'text')
        .addColumn('latitude', real)
        .addColumn('longitude', real)
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('offline_since', 'bigint')
        .addColumn('offline_incident_id', 'bigint')
        .execute();
      await db
        .insertInto('locations')
        .values({ id: 'local', name: 'local', created_at: Date.now() })
        .execute();
      await db.schema
        .createTable('probes')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('location_id', 'text', (c) =>
          c.notNull().references('locations.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('version', 'text')
        .addColumn('host', 'text')
        .addColumn('last_heartbeat_at', 'bigint')
        .addColumn('clock_offset_ms', 'integer')
        .addColumn('load', real)
        .addColumn('lateness_p99_ms', 'integer')
        .addColumn('spool_depth', 'integer')
        .addColumn('spool_dropped', 'integer')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('probes_location').on('probes').column('location_id').execute();
      await db.schema
        .createTable('probe_tokens')
        .addColumn('id', id, (c) => (auto ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('probe_id', 'bigint', (c) =>
          c.notNull().references('probes.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('probe_tokens_probe')
        .on('probe_tokens')
        .column('probe_id')
        .execute();
    },
  };
}
