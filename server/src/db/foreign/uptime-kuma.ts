import type SQLite from 'better-sqlite3';
import type {
  KumaMaintenance,
  KumaMonitor,
  KumaSource,
  KumaStat,
  KumaStatusPage,
} from '../../config-as-code/importers/uptime-kuma/source.js';
import { kumaProblem } from '../../config-as-code/importers/uptime-kuma/problems.js';
import { readKumaSchema } from './uptime-kuma-schema.js';

type Row = Record<string, unknown>;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export const isSqliteFile = (bytes: Uint8Array): boolean =>
  bytes.length >= 100 && Buffer.from(bytes.subarray(0, 16)).equals(SQLITE_HEADER);

const text = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : null;
const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const bool = (v: unknown): boolean => v === 1 || v === true || v === '1' || v === 'true';

function jsonOf<T>(v: unknown, fallback: T): T {
  if (typeof v !== 'string' || v.trim() === '') return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

/**
 * Opens the uploaded bytes as an in-memory copy: the upload is never a file of ours, and
 * nothing is ever written back. A WAL-mode file (as Kuma leaves it) is read as a rollback
 * journal one, which is the same pages when it was checkpointed.
 */
async function openCopy(bytes: Uint8Array): Promise<SQLite.Database> {
  // Loaded on first use, as database.ts does: a PostgreSQL deployment never needs it otherwise.
  const { default: Driver } = await import('better-sqlite3');
  const copy = Buffer.from(bytes);
  if (copy[18] === 2 && copy[19] === 2) copy[18] = copy[19] = 1;
  let db: SQLite.Database;
  try {
    db = new Driver(copy, { readonly: true });
  } catch (err) {
    throw kumaProblem('corrupt', `SQLite cannot open it: ${(err as Error).message}`);
  }
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(String(check));
  } catch (err) {
    db.close();
    throw kumaProblem('corrupt', `SQLite's integrity check failed: ${(err as Error).message}`);
  }
  return db;
}

function monitorOf(r: Row): KumaMonitor {
  return {
    id: Number(r.id),
    name: text(r.name) ?? '',
    type: text(r.type) ?? '',
    active: bool(r.active),
    parent: num(r.parent),
    description: text(r.description) ?? '',
    interval: num(r.interval) ?? 60,
    retryInterval: num(r.retry_interval) ?? num(r.interval) ?? 60,
    maxretries: num(r.maxretries) ?? 0,
    timeout: num(r.timeout),
    resendInterval: num(r.resend_interval) ?? 0,
    url: text(r.url),
    method: text(r.method),
    hostname: text(r.hostname),
    port: num(r.port),
    keyword: text(r.keyword),
    invertKeyword: bool(r.invert_keyword),
    jsonPath: text(r.json_path),
    jsonPathOperator: text(r.json_path_operator),
    expectedValue: text(r.expected_value),
    ignoreTls: bool(r.ignore_tls),
    upsideDown: bool(r.upside_down),
    maxredirects: num(r.maxredirects) ?? 10,
    acceptedStatuscodes: jsonOf<string[]>(r.accepted_statuscodes_json, ['200-299']),
    headers: text(r.headers),
    body: text(r.body),
    httpBodyEncoding: text(r.http_body_encoding),
    authMethod: text(r.auth_method),
    basicAuthUser: text(r.basic_auth_user),
    basicAuthPass: text(r.basic_auth_pass),
    bearerToken: text(r.bearer_token),
    dnsResolveType: text(r.dns_resolve_type),
    dnsResolveServer: text(r.dns_resolve_server),
    pushToken: text(r.push_token),
    expiryNotification: bool(r.expiry_notification),
    ...(r.domain_expiry_notification === undefined
      ? {}
      : { domainExpiryNotification: bool(r.domain_expiry_notification) }),
    ipFamily: text(r.ip_family),
    conditions: text(r.conditions),
    proxyId: num(r.proxy_id),
    databaseConnectionString: text(r.database_connection_string),
    databaseQuery: text(r.database_query),
    radiusPassword: text(r.radius_password),
    pingCount: num(r.ping_count),
    grpcUrl: text(r.grpc_url),
    grpcServiceName: text(r.grpc_service_name),
    grpcMethod: text(r.grpc_method),
    grpcBody: text(r.grpc_body),
    grpcEnableTls: bool(r.grpc_enable_tls),
    wsIgnoreSecWebsocketAcceptHeader: bool(r.ws_ignore_sec_websocket_accept_header),
    mqttTopic: text(r.mqtt_topic),
    mqttUsername: text(r.mqtt_username),
    mqttPassword: text(r.mqtt_password),
    mqttSuccessMessage: text(r.mqtt_success_message),
    mqttCheckType: text(r.mqtt_check_type),
    rabbitmqNodes: text(r.rabbitmq_nodes),
    rabbitmqUsername: text(r.rabbitmq_username),
    rabbitmqPassword: text(r.rabbitmq_password),
    smtpSecurity: text(r.smtp_security),
  };
}

function statusPages(db: SQLite.Database): KumaStatusPage[] {
  const pages = db.prepare('select * from status_page order by id').all() as Row[];
  const cnames = db.prepare('select status_page_id, domain from status_page_cname').all() as Row[];
  const groups = db
    .prepare('select id, name, status_page_id from "group" order by status_page_id, weight, id')
    .all() as Row[];
  const members = db
    .prepare('select group_id, monitor_id from monitor_group order by group_id, weight, id')
    .all() as Row[];
  return pages.map((p) => ({
    id: Number(p.id),
    slug: text(p.slug) ?? '',
    title: text(p.title) ?? '',
    description: text(p.description) ?? '',
    footerText: text(p.footer_text) ?? '',
    published: bool(p.published),
    theme: text(p.theme) ?? 'auto',
    customDomains: cnames.filter((c) => c.status_page_id === p.id).map((c) => String(c.domain)),
    groups: groups
      .filter((g) => g.status_page_id === p.id)
      .map((g) => ({
        name: text(g.name) ?? '',
        monitorIds: members.filter((m) => m.group_id === g.id).map((m) => Number(m.monitor_id)),
      })),
  }));
}

function maintenance(db: SQLite.Database): KumaMaintenance[] {
  const rows = db.prepare('select * from maintenance order by id').all() as Row[];
  const monitors = db
    .prepare('select maintenance_id, monitor_id from monitor_maintenance')
    .all() as Row[];
  const pages = db
    .prepare('select maintenance_id, status_page_id from maintenance_status_page')
    .all() as Row[];
  return rows.map((r) => ({
    id: Number(r.id),
    title: text(r.title) ?? '',
    description: text(r.description) ?? '',
    strategy: text(r.strategy) ?? '',
    active: bool(r.active),
    timezone: text(r.timezone),
    startDate: text(r.start_date),
    endDate: text(r.end_date),
    startTime: text(r.start_time),
    endTime: text(r.end_time),
    weekdays: jsonOf<number[]>(r.weekdays, []),
    daysOfMonth: jsonOf<(number | string)[]>(r.days_of_month, []),
    intervalDay: num(r.interval_day),
    cron: text(r.cron),
    duration: num(r.duration),
    monitorIds: monitors.filter((m) => m.maintenance_id === r.id).map((m) => Number(m.monitor_id)),
    statusPageIds: pages
      .filter((m) => m.maintenance_id === r.id)
      .map((m) => Number(m.status_page_id)),
  }));
}

function stats(db: SQLite.Database, table: string, since: number): KumaStat[] {
  const rows = db
    .prepare(
      `select monitor_id, timestamp, up, down, ping, ping_min, ping_max from ${table} where timestamp >= ? order by monitor_id, timestamp`,
    )
    .all(since) as Row[];
  return rows.map((r) => ({
    monitorId: Number(r.monitor_id),
    timestamp: Number(r.timestamp),
    up: Number(r.up),
    down: Number(r.down),
    ping: num(r.ping),
    pingMin: num(r.ping_min),
    pingMax: num(r.ping_max),
  }));
}

export interface ReadKumaOptions {
  /** Statistics of buckets starting at or after this instant (ms) are read. */
  historySince: number;
}

/**
 * Reads an Uptime Kuma 2.x SQLite database from its bytes: everything the importer maps, as
 * plain rows. A file that is not SQLite, not Kuma's, of a Kuma version this reader does not
 * know, or damaged, is a `validation_failed` problem naming which.
 */
export async function readKumaDatabase(
  bytes: Uint8Array,
  options: ReadKumaOptions,
): Promise<KumaSource> {
  if (!isSqliteFile(bytes)) {
    throw kumaProblem('not_sqlite', 'The file is not an SQLite database');
  }
  const db = await openCopy(bytes);
  try {
    const schema = readKumaSchema(db);
    const settings = new Map(
      (db.prepare('select key, value from setting').all() as Row[]).map((r) => [
        String(r.key),
        text(r.value),
      ]),
    );
    const since = Math.floor(options.historySince / 1000);
    return {
      origin: schema.origin,
      monitors: (db.prepare('select * from monitor order by id').all() as Row[]).map(monitorOf),
      tags: (db.prepare('select id, name, color from tag order by id').all() as Row[]).map((r) => ({
        id: Number(r.id),
        name: text(r.name) ?? '',
        color: text(r.color) ?? '',
      })),
      monitorTags: (
        db.prepare('select monitor_id, tag_id, value from monitor_tag order by id').all() as Row[]
      ).map((r) => ({
        monitorId: Number(r.monitor_id),
        tagId: Number(r.tag_id),
        value: text(r.value) ?? '',
      })),
      notifications: (
        db
          .prepare('select id, name, active, is_default, config from notification order by id')
          .all() as Row[]
      ).map((r) => ({
        id: Number(r.id),
        name: text(r.name) ?? '',
        active: bool(r.active),
        isDefault: bool(r.is_default),
        config: jsonOf<Record<string, unknown>>(r.config, {}),
      })),
      monitorNotifications: (
        db
          .prepare('select monitor_id, notification_id from monitor_notification order by id')
          .all() as Row[]
      ).map((r) => [Number(r.monitor_id), Number(r.notification_id)]),
      statusPages: statusPages(db),
      maintenance: maintenance(db),
      serverTimezone: jsonOf<string | null>(settings.get('serverTimezone'), null),
      stats: {
        minute: stats(db, 'stat_minutely', since),
        hour: stats(db, 'stat_hourly', since),
        day: stats(db, 'stat_daily', since),
      },
    };
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_')) {
      throw kumaProblem('corrupt', `Reading it failed: ${(err as Error).message}`);
    }
    throw err;
  } finally {
    db.close();
  }
}
