import type SQLite from 'better-sqlite3';
import { kumaProblem } from '../../config-as-code/importers/uptime-kuma/problems.js';

/**
 * The newest knex migration of the Kuma releases this reader was checked against (2.5.3, the
 * fixture in server/test/fixtures). Migration names start with their date, so a later name means
 * a later Kuma whose columns may have changed meaning.
 */
export const NEWEST_KNOWN_MIGRATION = '2026-08-18-0000-sqlite-only-drop-analytics-type-check.js';
const NEWEST_KNOWN_RELEASE = '2.5.3';

/** Tables and the columns the importer reads from each; `monitor` is checked column by column. */
const required: Record<string, string[]> = {
  monitor: [
    'id',
    'name',
    'type',
    'active',
    'parent',
    'interval',
    'retry_interval',
    'maxretries',
    'timeout',
    'url',
    'method',
    'hostname',
    'port',
    'keyword',
    'invert_keyword',
    'json_path',
    'expected_value',
    'accepted_statuscodes_json',
    'headers',
    'body',
    'push_token',
    'dns_resolve_type',
    'dns_resolve_server',
  ],
  setting: ['key', 'value'],
  tag: ['id', 'name', 'color'],
  monitor_tag: ['monitor_id', 'tag_id', 'value'],
  notification: ['id', 'name', 'config', 'is_default'],
  monitor_notification: ['monitor_id', 'notification_id'],
  status_page: ['id', 'slug', 'title', 'description', 'footer_text', 'published'],
  status_page_cname: ['status_page_id', 'domain'],
  group: ['id', 'name', 'status_page_id', 'weight'],
  monitor_group: ['group_id', 'monitor_id', 'weight'],
  maintenance: ['id', 'title', 'strategy', 'start_date', 'end_date', 'weekdays', 'cron'],
  monitor_maintenance: ['maintenance_id', 'monitor_id'],
  maintenance_status_page: ['maintenance_id', 'status_page_id'],
  stat_daily: ['monitor_id', 'timestamp', 'up', 'down', 'ping', 'ping_min', 'ping_max'],
  stat_hourly: ['monitor_id', 'timestamp', 'up', 'down', 'ping', 'ping_min', 'ping_max'],
  stat_minutely: ['monitor_id', 'timestamp', 'up', 'down', 'ping', 'ping_min', 'ping_max'],
};

export interface KumaSchema {
  /** For the report, e.g. "Uptime Kuma 2.5.3 database". */
  origin: string;
  lastMigration: string;
}

function tableNames(db: SQLite.Database): Set<string> {
  const rows = db.prepare("select name from sqlite_master where type = 'table'").all() as {
    name: string;
  }[];
  return new Set(rows.map((r) => r.name));
}

/**
 * Tells which Kuma made the database, and refuses what the importer cannot read faithfully:
 * not Kuma at all, Kuma 1.x (no knex migrations, no statistics tables), or a schema newer
 * than the newest one known, or one missing a column the importer reads.
 */
export function readKumaSchema(db: SQLite.Database): KumaSchema {
  const tables = tableNames(db);
  if (!tables.has('monitor') || !tables.has('setting') || !tables.has('heartbeat')) {
    throw kumaProblem(
      'not_kuma',
      'it has no monitor, heartbeat and setting tables; upload the kuma.db file from Uptime Kuma’s data folder',
    );
  }
  if (!tables.has('knex_migrations')) {
    throw kumaProblem(
      'kuma_1_database',
      'Pagewatch imports Uptime Kuma 2.x databases and 1.x JSON backups. Start it once with Uptime Kuma 2.x (which upgrades it), or upload a JSON backup from Settings → Backup of Kuma 1.x',
    );
  }
  const last = db
    .prepare('select name from knex_migrations order by name desc limit 1')
    .pluck()
    .get() as string | undefined;
  if (last === undefined) {
    throw kumaProblem('unknown_version', 'its schema history (knex_migrations) is empty');
  }
  if (last > NEWEST_KNOWN_MIGRATION) {
    throw kumaProblem(
      'unknown_version',
      `its newest schema step is ${last}, newer than Uptime Kuma ${NEWEST_KNOWN_RELEASE} (${NEWEST_KNOWN_MIGRATION}), the newest Pagewatch knows. Update Pagewatch, or import from Kuma ${NEWEST_KNOWN_RELEASE}`,
    );
  }
  for (const [table, columns] of Object.entries(required)) {
    if (!tables.has(table)) {
      throw kumaProblem(
        'unknown_version',
        `it has no ${table} table (schema step ${last}); Pagewatch reads Uptime Kuma 2.0 to ${NEWEST_KNOWN_RELEASE}`,
      );
    }
    const present = new Set(
      (db.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map(
        (c) => c.name,
      ),
    );
    const missing = columns.filter((c) => !present.has(c));
    if (missing.length > 0) {
      throw kumaProblem(
        'unknown_version',
        `its ${table} table has no ${missing.join(', ')} (schema step ${last}); Pagewatch reads Uptime Kuma 2.0 to ${NEWEST_KNOWN_RELEASE}`,
      );
    }
  }
  const release = last === NEWEST_KNOWN_MIGRATION ? NEWEST_KNOWN_RELEASE : '2.x';
  return { origin: `Uptime Kuma ${release} database (schema step ${last})`, lastMigration: last };
}
