import { z } from 'zod';
import { kumaProblem } from './problems.js';
import type { KumaMonitor, KumaNotification, KumaSource } from './source.js';

// Kuma's JSON is loose: numbers arrive as strings, flags as 0/1, absent fields as null.
const int = z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int());
const optNum = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined || v === '' ? null : Number(v)))
  .pipe(z.number().nullable());
const optText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? null : String(v)));
const flag = z
  .union([z.boolean(), z.number(), z.string(), z.null()])
  .optional()
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

const BackupTag = z.looseObject({
  tag_id: int,
  name: z.string(),
  color: z.string().optional().default(''),
  value: optText,
});

const BackupMonitor = z.looseObject({
  id: int,
  name: z.string(),
  type: z.string(),
  active: flag,
  parent: optNum,
  description: optText,
  interval: optNum,
  retryInterval: optNum,
  maxretries: optNum,
  timeout: optNum,
  resendInterval: optNum,
  url: optText,
  method: optText,
  hostname: optText,
  port: optNum,
  keyword: optText,
  invertKeyword: flag,
  jsonPath: optText,
  jsonPathOperator: optText,
  expectedValue: optText,
  ignoreTls: flag,
  upsideDown: flag,
  maxredirects: optNum,
  accepted_statuscodes: z.array(z.string()).nullish(),
  headers: optText,
  body: optText,
  httpBodyEncoding: optText,
  authMethod: optText,
  basic_auth_user: optText,
  basic_auth_pass: optText,
  dns_resolve_type: optText,
  dns_resolve_server: optText,
  pushToken: optText,
  expiryNotification: flag,
  /** Monitor#toJSON writes `proxyId` (camel case); its id in the proxy table. */
  proxyId: optNum,
  databaseConnectionString: optText,
  databaseQuery: optText,
  radiusPassword: optText,
  grpcUrl: optText,
  grpcServiceName: optText,
  grpcMethod: optText,
  grpcBody: optText,
  grpcEnableTls: flag,
  mqttTopic: optText,
  mqttUsername: optText,
  mqttPassword: optText,
  mqttSuccessMessage: optText,
  mqttCheckType: optText,
  notificationIDList: z.record(z.string(), z.unknown()).nullish(),
  tags: z.array(BackupTag).nullish(),
});

const BackupNotification = z.looseObject({
  id: int,
  name: z.string().nullish(),
  config: z.string().nullish(),
  active: flag,
  is_default: flag,
  isDefault: flag,
});

/** Kuma 1.x's Settings → Backup → Export (`{ version, notificationList, monitorList }`). */
export const KumaBackup = z.looseObject({
  version: z.string({ error: 'version is missing' }),
  notificationList: z.array(BackupNotification),
  monitorList: z.array(BackupMonitor),
});

function monitorOf(m: z.infer<typeof BackupMonitor>): KumaMonitor {
  const interval = m.interval ?? 60;
  return {
    id: m.id,
    name: m.name,
    type: m.type,
    active: m.active,
    parent: m.parent,
    description: m.description ?? '',
    interval,
    retryInterval: m.retryInterval ?? interval,
    maxretries: m.maxretries ?? 0,
    // Backups from before Kuma had a timeout: uploadBackup restores `interval * 0.8`.
    timeout: m.timeout || interval * 0.8,
    resendInterval: m.resendInterval ?? 0,
    url: m.url,
    method: m.method,
    hostname: m.hostname,
    port: m.port,
    keyword: m.keyword,
    invertKeyword: m.invertKeyword,
    jsonPath: m.jsonPath,
    jsonPathOperator: m.jsonPathOperator,
    expectedValue: m.expectedValue,
    ignoreTls: m.ignoreTls,
    upsideDown: m.upsideDown,
    maxredirects: m.maxredirects ?? 10,
    acceptedStatuscodes: m.accepted_statuscodes ?? ['200-299'],
    headers: m.headers,
    body: m.body,
    httpBodyEncoding: m.httpBodyEncoding,
    authMethod: m.authMethod,
    basicAuthUser: m.basic_auth_user,
    basicAuthPass: m.basic_auth_pass,
    bearerToken: null,
    dnsResolveType: m.dns_resolve_type,
    dnsResolveServer: m.dns_resolve_server,
    pushToken: m.pushToken,
    expiryNotification: m.expiryNotification,
    ipFamily: null,
    conditions: null,
    proxyId: m.proxyId,
    databaseConnectionString: m.databaseConnectionString,
    databaseQuery: m.databaseQuery,
    radiusPassword: m.radiusPassword,
    grpcUrl: m.grpcUrl,
    grpcServiceName: m.grpcServiceName,
    grpcMethod: m.grpcMethod,
    grpcBody: m.grpcBody,
    grpcEnableTls: m.grpcEnableTls,
    mqttTopic: m.mqttTopic,
    mqttUsername: m.mqttUsername,
    mqttPassword: m.mqttPassword,
    mqttSuccessMessage: m.mqttSuccessMessage,
    mqttCheckType: m.mqttCheckType,
  };
}

function notificationOf(n: z.infer<typeof BackupNotification>): KumaNotification {
  let config: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(n.config ?? '{}');
    if (parsed !== null && typeof parsed === 'object') config = parsed as Record<string, unknown>;
  } catch {
    // An unreadable form leaves no type: the mapper lists the channel as skipped.
  }
  return {
    id: n.id,
    name: n.name ?? (typeof config.name === 'string' ? config.name : `Notification ${n.id}`),
    active: n.active,
    isDefault: n.is_default || n.isDefault,
    config,
  };
}

/**
 * Reads a Kuma 1.x JSON backup. It holds monitors and notifications only: no status pages,
 * maintenance or statistics (Kuma never exported those).
 */
export function readKumaBackup(json: string): KumaSource {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw kumaProblem('bad_backup', `it is not JSON (${(err as Error).message})`);
  }
  const parsed = KumaBackup.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.map(String).join('.') || 'the top level';
    throw kumaProblem('bad_backup', `${where}: ${first?.message ?? 'unexpected shape'}`);
  }
  const backup = parsed.data;
  const tags = new Map<number, { id: number; name: string; color: string }>();
  const monitorTags: KumaSource['monitorTags'] = [];
  const links: [number, number][] = [];
  for (const m of backup.monitorList) {
    for (const t of m.tags ?? []) {
      tags.set(t.tag_id, { id: t.tag_id, name: t.name, color: t.color });
      monitorTags.push({ monitorId: m.id, tagId: t.tag_id, value: t.value ?? '' });
    }
    for (const [id, on] of Object.entries(m.notificationIDList ?? {})) {
      if (on === true || on === 1 || on === '1') links.push([m.id, Number(id)]);
    }
  }
  return {
    origin: `Uptime Kuma ${backup.version} JSON backup`,
    monitors: backup.monitorList.map(monitorOf),
    tags: [...tags.values()],
    monitorTags,
    notifications: backup.notificationList.map(notificationOf),
    monitorNotifications: links,
    statusPages: [],
    maintenance: [],
    serverTimezone: null,
    stats: { minute: [], hour: [], day: [] },
  };
}
