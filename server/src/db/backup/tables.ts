import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * The tables a backup carries, parents before children so a restore inserts them in this order
 * with foreign keys on. A table of a later migration that is missing here is still backed up
 * (after these); server/test/db/backup-tables.test.ts fails until it is placed or excluded.
 */
export const BACKUP_TABLES: readonly string[] = [
  'users',
  'sessions',
  'login_challenges',
  'passkeys',
  'webauthn_challenges',
  'api_keys',
  'login_failures',
  'account_tokens',
  'deleted_users',
  'contact_methods',
  'user_quiet_hours',
  'oidc_providers',
  'oidc_identities',
  'oidc_flows',
  'oidc_sessions',
  'audit_events',
  'settings',
  'locations',
  'probes',
  'probe_tokens',
  'monitors',
  'notification_channels',
  'escalation_policies',
  'tag_policies',
  'oncall_schedules',
  'oncall_overrides',
  'monitor_channels',
  'monitor_parents',
  'monitor_locations',
  'monitor_location_verdicts',
  'monitor_grouping',
  'check_results',
  'browser_runs',
  'rollup_minute',
  'rollup_hour',
  'rollup_day',
  'status_flips',
  'incidents',
  'incident_monitors',
  'incident_updates',
  'maintenance_windows',
  'availability_corrections',
  'status_pages',
  'status_page_sections',
  'status_page_components',
  'status_subscribers',
  'slos',
  'report_schedules',
  'report_deliveries',
  'report_links',
  'deliveries',
  'escalations',
  'alert_batches',
  'alert_batch_items',
  'backup_runs',
];

/**
 * What a backup leaves out: the migrator's bookkeeping (the header names the migration) and the
 * processes' coordination, which describes the running deployment, not its data (ADR 29), and
 * copies derived from the data that are rebuilt when missing.
 */
export const EXCLUDED_TABLES: readonly string[] = [
  'kysely_migration',
  'kysely_migration_lock',
  'cluster_members',
  'cluster_partitions',
  'cluster_singletons',
  'check_requests',
  // Derived from the day rollups and checked against them on every read (ADR 75).
  'rollup_run_sketches',
];

/** The tables that hold what people made; a restore target must have none of their rows. */
export const CONTENT_TABLES: readonly string[] = [
  'monitors',
  'check_results',
  'notification_channels',
  'status_pages',
  'maintenance_windows',
  'incidents',
  'deliveries',
];

/** The database's own tables (this schema on PostgreSQL), in backup order. */
export async function tablesOf(db: Kysely<any>, engine: Engine): Promise<string[]> {
  const present =
    engine === 'postgres'
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
        ).rows.map((r) => r.name)
      : (
          await sql<{ name: string }>`select name from sqlite_master
            where type = 'table' and name not like 'sqlite_%'`.execute(db)
        ).rows.map((r) => r.name);
  const known = BACKUP_TABLES.filter((t) => present.includes(t));
  const later = present
    .filter((t) => !BACKUP_TABLES.includes(t) && !EXCLUDED_TABLES.includes(t))
    .sort();
  return [...known, ...later];
}

/** A table's columns in declaration order. */
export async function columnsOf(db: Kysely<any>, engine: Engine, table: string): Promise<string[]> {
  if (engine === 'postgres') {
    const { rows } = await sql<{ name: string }>`select column_name as name
      from information_schema.columns where table_schema = current_schema() and table_name = ${table}
      order by ordinal_position`.execute(db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})
    order by cid`.execute(db);
  return rows.map((r) => r.name);
}

/** The last migration applied: the schema version a backup is of. */
export async function lastMigration(db: Kysely<any>): Promise<string | null> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration
    order by name desc limit 1`.execute(db);
  return rows[0]?.name ?? null;
}
