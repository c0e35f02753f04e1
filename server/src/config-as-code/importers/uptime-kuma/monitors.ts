import { limits, MonitorEntry, PushToken, type ImportItem } from '@pagewatch/contract';
import { clamp, item, kumaKeys, merged, skipped } from './keys.js';
import { httpFields, Unmappable } from './monitor-http.js';
import { databaseFields } from './monitor-database.js';
import { mqttFields, rabbitmqFields, smtpFields } from './monitor-messaging.js';
import { grpcFields, pingFields, websocketFields } from './monitor-net.js';
import type { KumaMonitor, KumaSource } from './source.js';

/** Kuma types with no Pagewatch counterpart, and why (listed as skipped, never dropped). */
const missingTypes: Record<string, string> = {
  docker: 'Pagewatch does not watch Docker containers',
  steam: 'Pagewatch has no game server monitors',
  gamedig: 'Pagewatch has no game server monitors',
  kafka: 'Pagewatch has no Kafka producer monitor',
  'kafka-producer': 'Pagewatch has no Kafka producer monitor',
  sqlserver:
    'Pagewatch has no SQL Server monitor (PostgreSQL, MySQL/MariaDB, Redis and MongoDB it has)',
  radius: 'Pagewatch has no RADIUS monitor',
  tailscale: 'Pagewatch has no Tailscale ping monitor',
};

export interface MappedMonitors {
  entries: MonitorEntry[];
  items: ImportItem[];
  /** Kuma monitor id → key, for monitors that were mapped. */
  keyOf: Map<number, string>;
  /** Monitor key → the Kuma push token it keeps. */
  pushTokens: Map<string, string>;
}

/** A tag per ancestor group (`group:Production`), so the dashboard filters by group. */
function groupTags(m: KumaMonitor, byId: Map<number, KumaMonitor>): string[] {
  const tags: string[] = [];
  const seen = new Set<number>();
  for (let p = m.parent; p !== null && !seen.has(p); p = byId.get(p)?.parent ?? null) {
    seen.add(p);
    const group = byId.get(p);
    if (group) tags.unshift(`group:${group.name}`);
  }
  return tags;
}

function tagsOf(m: KumaMonitor, src: KumaSource, byId: Map<number, KumaMonitor>, notes: string[]) {
  const names = new Map(src.tags.map((t) => [t.id, t.name]));
  const own = src.monitorTags
    .filter((t) => t.monitorId === m.id)
    .map((t) => {
      const name = names.get(t.tagId) ?? `tag-${t.tagId}`;
      return t.value === '' ? name : `${name}:${t.value}`;
    });
  const out: string[] = [];
  for (const tag of [...groupTags(m, byId), ...own]) {
    const trimmed = tag.trim();
    if (trimmed.length > limits.tagMax) {
      notes.push(`Tag "${trimmed}" was cut to ${limits.tagMax} characters`);
    }
    const kept = trimmed.slice(0, limits.tagMax);
    if (kept !== '' && !out.includes(kept)) out.push(kept);
  }
  if (out.length > limits.tagsMax) notes.push(`Only the first ${limits.tagsMax} tags were kept`);
  return out.slice(0, limits.tagsMax);
}

/** Interval, retries, retry interval and timeout within Pagewatch's limits (SPEC §5). */
function timing(m: KumaMonitor, notes: string[]) {
  const interval = clamp(Math.round(m.interval), limits.intervalMin, limits.intervalMax);
  if (interval !== m.interval) notes.push(`Interval ${m.interval} s → ${interval} s`);
  const retries = clamp(Math.round(m.maxretries), 0, limits.retriesMax);
  if (retries !== m.maxretries) notes.push(`Retries ${m.maxretries} → ${retries}`);
  const retry = clamp(Math.round(m.retryInterval), limits.intervalMin, limits.intervalMax);
  const timeoutMax = Math.min(limits.timeoutMax, interval - 1);
  const timeout = m.timeout === null ? null : clamp(Math.round(m.timeout), 1, timeoutMax);
  if (m.timeout !== null && timeout !== m.timeout) {
    notes.push(
      `Timeout ${m.timeout} s → ${timeout} s (whole seconds, below the interval, at most 120)`,
    );
  }
  return {
    interval,
    retries,
    retryInterval: retry === interval ? null : retry,
    ...(timeout === null ? {} : { timeout }),
  };
}

function typeFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  switch (m.type) {
    case 'http':
    case 'keyword':
    case 'json-query':
      return { type: 'http', ...httpFields(m, notes) };
    case 'port':
      if (m.upsideDown)
        throw new Unmappable('upside-down mode of a TCP monitor has no Pagewatch equivalent');
      return { type: 'tcp', host: m.hostname ?? '', port: m.port ?? 0 };
    case 'dns':
      return dnsFields(m, notes);
    case 'push':
      return { type: 'push' };
    case 'ping':
      return pingFields(m, notes);
    case 'grpc-keyword':
      return grpcFields(m, notes);
    case 'websocket-upgrade':
      return websocketFields(m, notes);
    case 'postgres':
    case 'mysql':
    case 'redis':
    case 'mongodb':
      return databaseFields(m, notes);
    case 'mqtt':
      return mqttFields(m, notes);
    case 'rabbitmq':
      return rabbitmqFields(m, notes);
    case 'smtp':
      return smtpFields(m, notes);
    default:
      throw new Unmappable(missingTypes[m.type] ?? `Pagewatch has no "${m.type}" monitor`);
  }
}

function dnsFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  if (m.upsideDown)
    throw new Unmappable('upside-down mode of a DNS monitor has no Pagewatch equivalent');
  const servers = (m.dnsResolveServer ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (servers.length > 1)
    notes.push(`Only the first resolver (${servers[0]}) is asked; Kuma had ${servers.join(', ')}`);
  const server = servers[0] ?? '';
  const port = m.port ?? 53;
  const withPort =
    server === '' || port === 53
      ? server
      : server.includes(':')
        ? `[${server}]:${port}`
        : `${server}:${port}`;
  return {
    type: 'dns',
    host: m.hostname ?? '',
    recordType: m.dnsResolveType ?? 'A',
    resolver: withPort,
  };
}

/** Kuma settings with no Pagewatch counterpart that leave the check otherwise whole. */
function leftOut(m: KumaMonitor, notes: string[]): void {
  const conditions = (m.conditions ?? '').trim();
  if (conditions !== '' && conditions !== '[]') {
    notes.push(`Its extra conditions were left out (${conditions.slice(0, 200)})`);
  }
  if (m.proxyId !== null) notes.push('Kuma sent it through a proxy; Pagewatch connects directly');
}

/** A TLS monitor beside an HTTPS monitor whose certificate Kuma watched (expiry notification). */
function certificateEntry(m: KumaMonitor, base: Record<string, unknown>): unknown {
  let url: URL;
  try {
    url = new URL(m.url ?? '');
  } catch {
    return null;
  }
  if (url.protocol !== 'https:') return null;
  return {
    key: kumaKeys.certificate(m.id),
    type: 'tls',
    name: `${m.name} (certificate)`.slice(0, limits.nameMax),
    interval: Math.max(3600, base.interval as number),
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? 443 : Number(url.port),
    tags: base.tags,
    paused: base.paused,
    channels: base.channels,
  };
}

const fieldErrors = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.map(String).join('.') || 'monitor'}: ${i.message}`).join('; ');

/**
 * Kuma's monitors as document entries. Groups become tags of their members; a monitor whose
 * type or settings Pagewatch cannot express is listed as skipped with the reason.
 */
export function mapMonitors(src: KumaSource, channelKeyOf: Map<number, string>): MappedMonitors {
  const byId = new Map(src.monitors.map((m) => [m.id, m]));
  const out: MappedMonitors = { entries: [], items: [], keyOf: new Map(), pushTokens: new Map() };
  for (const m of src.monitors) {
    const source = `monitor #${m.id} (${m.type})`;
    if (m.type === 'group') {
      out.items.push(
        merged(
          'monitor',
          source,
          m.name,
          `Pagewatch has no group monitors; its members carry the tag "group:${m.name}"`,
        ),
      );
      continue;
    }
    const notes: string[] = [];
    const key = kumaKeys.monitor(m.id);
    const channels = src.monitorNotifications
      .filter(([monitorId]) => monitorId === m.id)
      .map(([, id]) => channelKeyOf.get(id))
      .filter((k): k is string => k !== undefined);
    const base: Record<string, unknown> = {
      key,
      name: m.name.trim().slice(0, limits.nameMax),
      ...timing(m, notes),
      tags: tagsOf(m, src, byId, notes),
      description: m.description.slice(0, 2000),
      paused: !m.active,
      channels,
      ...(m.resendInterval > 0
        ? { alerts: { renotifyEveryChecks: Math.min(10_000, m.resendInterval) } }
        : {}),
    };
    leftOut(m, notes);
    let entry: Record<string, unknown>;
    try {
      entry = { ...base, ...typeFields(m, notes) };
    } catch (err) {
      if (!(err instanceof Unmappable)) throw err;
      out.items.push(skipped('monitor', source, m.name, err.message));
      continue;
    }
    if (entry.type === 'push') delete entry.timeout;
    const parsed = MonitorEntry.safeParse(entry);
    if (!parsed.success) {
      out.items.push(
        skipped(
          'monitor',
          source,
          m.name,
          `Pagewatch refuses its settings: ${fieldErrors(parsed.error.issues)}`,
          notes,
        ),
      );
      continue;
    }
    out.entries.push(parsed.data);
    out.keyOf.set(m.id, key);
    if (m.type === 'push') {
      if (m.pushToken && PushToken.safeParse(m.pushToken).success) {
        out.pushTokens.set(key, m.pushToken);
      } else {
        notes.push(
          'Its push token could not be kept (none, or not 8–64 letters and digits): it gets a new push URL',
        );
      }
    }
    out.items.push(item('monitor', source, m.name, key, notes));
    if (m.expiryNotification && entry.type === 'http') {
      const tls = MonitorEntry.safeParse(certificateEntry(m, entry));
      if (tls.success) {
        out.entries.push(tls.data);
        notes.push(`Its certificate expiry warning became the TLS monitor ${tls.data.key}`);
      }
    }
  }
  return out;
}
