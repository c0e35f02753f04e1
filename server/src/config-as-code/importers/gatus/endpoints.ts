import {
  isHarmlessHeader,
  limits,
  MonitorEntry,
  type AssertionDraft,
  type ImportItem,
} from '@pagewatch/contract';
import { clamp, item, skipped } from '../uptime-kuma/keys.js';
import { goDurationMs, mapCondition } from './conditions.js';
import { str, type GatusKeys } from './keys.js';
import type { GatusMap } from './read.js';

/** Why an endpoint cannot be carried over; it is then listed as skipped. */
class Unmappable extends Error {}

export interface MappedMonitors {
  entries: MonitorEntry[];
  items: ImportItem[];
  /** Monitor key → the Gatus token the push monitor keeps. */
  pushTokens: Map<string, string>;
}

export interface AlertContext {
  keyOf: Map<string, string>;
  defaults: Map<string, GatusMap>;
}

const schemes: Record<string, string> = {
  sctp: 'Pagewatch has no SCTP monitor',
  ssh: 'Pagewatch has no SSH monitor',
};

/** Interval and timeout (Go durations in Gatus) within Pagewatch's limits (SPEC §5). */
function timing(e: GatusMap, notes: string[]) {
  const written = str(e.interval || '60s');
  const ms = goDurationMs(written);
  if (ms === null) throw new Unmappable(`its interval "${written}" is not a duration`);
  const interval = clamp(Math.round(ms / 1000), limits.intervalMin, limits.intervalMax);
  if (interval * 1000 !== ms) notes.push(`Interval ${written} → ${interval} s`);
  const client = (e.client ?? {}) as GatusMap;
  const timeoutMs = goDurationMs(str(client.timeout || '10s')) ?? 10_000;
  const timeout = clamp(Math.ceil(timeoutMs / 1000), 1, Math.min(limits.timeoutMax, interval - 1));
  if (timeout * 1000 !== timeoutMs) {
    notes.push(`Timeout ${str(client.timeout || '10s')} → ${timeout} s`);
  }
  return { interval, timeout, retries: 0 };
}

/** Alerts → the monitor's channels and rules: the earliest failure threshold wins. */
export function alertsOf(e: GatusMap, ctx: AlertContext, notes: string[]) {
  const channels: string[] = [];
  let afterChecks: number | null = null;
  let recovery = false;
  for (const raw of Array.isArray(e.alerts) ? (e.alerts as GatusMap[]) : []) {
    const type = str(raw.type);
    const a = { ...(ctx.defaults.get(type) ?? {}), ...raw };
    const key = ctx.keyOf.get(type);
    if (a.enabled === false) {
      notes.push(`Its disabled ${type} alert was left out`);
      continue;
    }
    if (!key) {
      notes.push(`Its ${type} alert was left out: no ${type} channel was imported`);
      continue;
    }
    if (!channels.includes(key)) channels.push(key);
    const failures = clamp(Math.round(Number(a['failure-threshold'] ?? 3)), 1, 100);
    afterChecks = afterChecks === null ? failures : Math.min(afterChecks, failures);
    recovery ||= a['send-on-resolved'] === true;
    // Gatus's default of 2 is not worth a note on every alert; a threshold written down is.
    const successes = Number(a['success-threshold'] ?? 1);
    if (successes > 1) {
      notes.push(
        `Success threshold ${successes} of the ${type} alert: Pagewatch resolves at the first good check`,
      );
    }
  }
  const alerts = { afterChecks: afterChecks ?? 1, notifyRecovery: recovery };
  return { channels, alerts };
}

function headersOf(e: GatusMap) {
  return Object.entries((e.headers ?? {}) as GatusMap).map(([name, value]) => ({
    name,
    value: str(value),
    secret: !isHarmlessHeader(name),
  }));
}

function bodyOf(e: GatusMap): { bodyType: string; body: string } {
  const body = str(e.body);
  if (body.trim() === '') return { bodyType: 'none', body: '' };
  try {
    JSON.parse(body);
    return { bodyType: 'json', body };
  } catch {
    return { bodyType: 'raw', body };
  }
}

type Kind = 'http' | 'tcp' | 'dns' | 'tls' | 'ping' | 'udp' | 'websocket' | 'grpc' | 'smtp';

/** Gatus schemes of the issue-19 types and the Pagewatch type each becomes. */
const netKinds: Record<string, Kind> = {
  icmp: 'ping',
  udp: 'udp',
  ws: 'websocket',
  wss: 'websocket',
  grpc: 'grpc',
  grpcs: 'grpc',
  // Gatus's starttls:// is SMTP's STARTTLS (its client says EHLO first), as the SMTP monitor.
  starttls: 'smtp',
};

function kindOf(e: GatusMap, url: URL | null): Kind {
  if (e.dns) return 'dns';
  const scheme = url?.protocol.slice(0, -1) ?? '';
  if (scheme === 'http' || scheme === 'https') return 'http';
  if (scheme === 'tcp') return 'tcp';
  if (scheme === 'tls') return 'tls';
  const net = netKinds[scheme];
  if (net !== undefined) return net;
  throw new Unmappable(schemes[scheme] ?? `Pagewatch has no monitor for ${scheme || 'this'} URLs`);
}

interface Built {
  fields: GatusMap;
  certificateHours: number | null;
}

/** The type's own fields, with every condition applied or noted as left out. */
function typeFields(e: GatusMap, kind: Kind, url: URL | null, notes: string[]): Built {
  const assertions: AssertionDraft[] = [];
  let codes: string[] | null = null;
  let certificateHours: number | null = null;
  let domainHours: number | null = null;
  let latency: number | null = null;
  const expected: string[] = [];
  for (const c of (Array.isArray(e.conditions) ? e.conditions : []).map(str)) {
    const effect = mapCondition(c, kind);
    if (effect.kind === 'status') codes = codes ? [...codes, ...effect.codes] : effect.codes;
    else if (effect.kind === 'assertion') assertions.push(effect.assertion);
    else if (effect.kind === 'latency') latency = Math.min(latency ?? Infinity, effect.maxMs);
    else if (effect.kind === 'certificate') certificateHours = effect.hours;
    else if (effect.kind === 'domain') domainHours = effect.hours;
    else if (effect.kind === 'dnsExpected') expected.push(effect.value);
    else if (effect.kind === 'skipped')
      notes.push(`Condition "${c}" was left out: ${effect.reason}`);
  }
  const host = url?.hostname.replace(/^\[|\]$/g, '') ?? '';
  const fields: GatusMap = {};
  if (kind === 'http') {
    if (latency !== null) assertions.push({ kind: 'latency', maxMs: latency, soft: false });
    if (codes === null) notes.push('It has no [STATUS] condition: every status code is accepted');
    const client = (e.client ?? {}) as GatusMap;
    if (e.graphql === true) notes.push('Its body is sent as typed, not wrapped as a GraphQL query');
    Object.assign(fields, {
      url: str(e.url),
      method: str(e.method || 'GET').toUpperCase(),
      headers: headersOf(e),
      ...bodyOf(e),
      acceptedStatusCodes: codes ?? ['100-599'],
      followRedirects: client['ignore-redirect'] !== true,
      ignoreTls: client.insecure === true,
      assertions,
    });
    if (domainHours !== null) {
      const warnDays = clamp(Math.ceil(domainHours / 24), 1, 365);
      fields.domainExpiry = { warnDays };
      notes.push(
        `[DOMAIN_EXPIRATION] became the domain registration option: degraded within ${warnDays} days of expiry, down once expired (Gatus fails the endpoint within ${domainHours} h)`,
      );
    }
  } else {
    if (latency !== null) {
      fields.degradedThresholdMs = latency;
      notes.push(
        `[RESPONSE_TIME] over ${latency} ms degrades the monitor instead of taking it down`,
      );
    }
    if (kind === 'dns') {
      const dns = (e.dns ?? {}) as GatusMap;
      const resolver = str(e.url).replace(/^[a-z]+:\/\//, '');
      Object.assign(fields, {
        host: str(dns['query-name']).replace(/\.$/, ''),
        recordType: str(dns['query-type'] || 'A').toUpperCase(),
        resolver,
        expected,
      });
    } else if (kind === 'ping') {
      fields.host = host;
    } else if (kind === 'websocket') {
      Object.assign(fields, { url: str(e.url), send: str(e.body) });
      if ((e.client as GatusMap | undefined)?.insecure === true) fields.ignoreTls = true;
    } else if (kind === 'udp') {
      if (str(e.body) === '') {
        throw new Unmappable(
          'it sends no body; Pagewatch’s UDP monitor sends a datagram and expects a reply',
        );
      }
      notes.push('Pagewatch’s UDP monitor is down unless a reply comes within the timeout');
      Object.assign(fields, { host, port: Number(url?.port || 0), send: str(e.body) });
    } else if (kind === 'grpc') {
      Object.assign(fields, {
        host,
        port: Number(url?.port || 0),
        tls: url?.protocol === 'grpcs:',
      });
      if ((e.client as GatusMap | undefined)?.insecure === true) fields.ignoreTls = true;
    } else if (kind === 'smtp') {
      Object.assign(fields, { host, port: Number(url?.port || 25), security: 'starttls' });
      if (certificateHours !== null) {
        fields.warnDays = clamp(Math.ceil(certificateHours / 24), 1, 365);
      }
      if ((e.client as GatusMap | undefined)?.insecure === true) fields.ignoreTrust = true;
      notes.push('Pagewatch also checks the 220 greeting and the EHLO answer before STARTTLS');
    } else {
      Object.assign(fields, { host, port: Number(url?.port || (kind === 'tls' ? 443 : 0)) });
      if (kind === 'tls' && certificateHours !== null) {
        fields.warnDays = clamp(Math.ceil(certificateHours / 24), 1, 365);
      }
    }
  }
  return {
    fields,
    certificateHours: kind === 'tls' || kind === 'smtp' ? null : certificateHours,
  };
}

export const fieldErrors = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.map(String).join('.') || 'monitor'}: ${i.message}`).join('; ');

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** A TLS monitor for an HTTPS endpoint whose `[CERTIFICATE_EXPIRATION]` Gatus checked. */
function certificateEntry(base: GatusMap, url: URL, hours: number): GatusMap {
  return {
    ...base,
    key: `${str(base.key).slice(0, 59)}-tls`,
    type: 'tls',
    name: `${str(base.name).slice(0, 94)} (TLS)`,
    host: url.hostname,
    port: Number(url.port || 443),
    warnDays: clamp(Math.ceil(hours / 24), 1, 365),
  };
}

export const handled = {
  endpoint: new Set(['name', 'group', 'url', 'method', 'body', 'graphql', 'headers', 'interval']),
  external: new Set(['name', 'group', 'token', 'heartbeat']),
  both: new Set(['enabled', 'conditions', 'alerts', 'dns', 'client']),
};

/** Settings Pagewatch does not carry (ui, ssh, maintenance-windows…), named, never dropped. */
export function leftOut(e: GatusMap, own: Set<string>, notes: string[]): void {
  const keys = Object.keys(e).filter((k) => !own.has(k) && !handled.both.has(k));
  if (keys.length > 0) notes.push(`Settings not imported: ${keys.join(', ')}`);
}

/** Gatus `endpoints` → http, tcp, dns and tls monitors; anything else skipped with why. */
export function mapEndpoints(list: GatusMap[], keys: GatusKeys, ctx: AlertContext): MappedMonitors {
  const out: MappedMonitors = { entries: [], items: [], pushTokens: new Map() };
  for (const [i, e] of list.entries()) {
    const name = str(e.name) || `endpoint ${i + 1}`;
    const group = str(e.group);
    const source = `endpoint "${group ? `${group}/` : ''}${name}"`;
    const notes: string[] = [];
    leftOut(e, handled.endpoint, notes);
    const url = parseUrl(str(e.url));
    let built: Built;
    let base: GatusMap;
    try {
      const kind = kindOf(e, url);
      base = {
        key: keys.next(group, name, 4),
        type: kind,
        name: name.slice(0, limits.nameMax),
        ...timing(e, notes),
        tags: group ? [`group:${group}`.slice(0, limits.tagMax)] : [],
        paused: e.enabled === false,
        ...alertsOf(e, ctx, notes),
      };
      built = typeFields(e, kind, url, notes);
    } catch (err) {
      if (!(err instanceof Unmappable)) throw err;
      out.items.push(skipped('monitor', source, name, err.message));
      continue;
    }
    const parsed = MonitorEntry.safeParse({ ...base, ...built.fields });
    if (!parsed.success) {
      const reason = `Pagewatch refuses its settings: ${fieldErrors(parsed.error.issues)}`;
      out.items.push(skipped('monitor', source, name, reason, notes));
      continue;
    }
    out.entries.push(parsed.data);
    out.items.push(item('monitor', source, name, parsed.data.key, notes));
    if (built.certificateHours !== null && url?.protocol === 'https:') {
      const tls = MonitorEntry.safeParse(certificateEntry(base, url, built.certificateHours));
      if (tls.success) {
        out.entries.push(tls.data);
        out.items.push(
          item('monitor', `${source} [CERTIFICATE_EXPIRATION]`, `${name} (TLS)`, tls.data.key, [
            `Gatus fails the endpoint within ${built.certificateHours} h of expiry; this TLS monitor degrades within ${tls.data.type === 'tls' ? tls.data.warnDays : 0} days and is down once it has expired`,
          ]),
        );
      }
    }
  }
  return out;
}
