import { referenceFieldOf, referencesOf } from '../domain/monitor-types.js';
import {
  ChannelEntry,
  configDocumentVersion,
  defaultAlertRules,
  MaintenanceEntry,
  MonitorEntry,
  SloEntry,
  StatusPageEntry,
  type ChannelKind,
  type ChannelQuietHours,
  type SloSettings,
  type ConfigDocument,
  type MaintenanceInput,
  type MessageTemplate,
  type StatusPage,
} from '@pagewatch/contract';
import type { MonitorRecord } from '../domain/monitor.js';
import { asReference, fillSecrets, type SecretSlot } from './secrets.js';

/** What to write in a secret slot; by default a reference when one is stored. */
export type SecretValue = (slot: SecretSlot) => string | undefined;

/**
 * Stored resources as document entries: defaults written out, secrets as `${env:NAME}`
 * references (never values), ids as keys, each parsed by its entry schema so fields come in
 * one order. Export → apply → export is then byte-identical.
 */

const byKey = (map: ReadonlyMap<number, string>, id: number): string => {
  const key = map.get(id);
  if (key === undefined) throw new Error(`Resource ${id} has no key`);
  return key;
};

/**
 * A placement as entry fields: none for the default (`local`, a majority), so documents and
 * drift baselines from before locations stay equal.
 */
function placementFields(p?: { locations: readonly string[]; quorum: number | null }) {
  if (!p) return {};
  const locations = [...p.locations].sort();
  const plain = locations.length === 1 && locations[0] === 'local';
  return {
    ...(plain ? {} : { locations }),
    ...(p.quorum === null ? {} : { quorum: p.quorum }),
  };
}

export function monitorEntryOf(
  m: MonitorRecord,
  key: string,
  channelKeys: readonly string[],
  secretValue?: SecretValue,
  /** Keys of the monitors this one's settings name (a group's members); unknown ids drop. */
  monitorKeys?: ReadonlyMap<number, string>,
  /** Its locations and quorum; left out (the default) they are not written (ADR 70). */
  placement?: { locations: readonly string[]; quorum: number | null },
): MonitorEntry {
  const entry: Record<string, unknown> = {
    key,
    type: m.type,
    name: m.name,
    interval: m.interval,
    timeout: m.timeout,
    retries: m.retries,
    retryInterval: m.retryInterval,
    degradedThresholdMs: m.degradedThresholdMs,
    tags: m.tags,
    description: m.description,
    paused: m.paused,
    ...structuredClone(m.settings),
    alerts: m.alerts ?? defaultAlertRules,
    channels: [...channelKeys].sort(),
    ...placementFields(placement),
  };
  // A browser password from before passwords were sealed still counts as stored.
  const legacy = (m.settings as { basicAuth?: { password?: string } | null }).basicAuth?.password;
  const stored = (slot: SecretSlot) =>
    slot.path[0] === 'headers' ? m.headerSecrets != null : m.secret != null || !!legacy;
  fillSecrets('monitors', entry, secretValue ?? asReference(stored));
  const field = referenceFieldOf(m.type);
  if (field) {
    entry[field] = referencesOf(m.type, m.settings).flatMap((id) => {
      const ref = monitorKeys?.get(id);
      return ref === undefined ? [] : [ref];
    });
  }
  return MonitorEntry.parse(entry);
}

export interface ChannelResource {
  kind: ChannelKind;
  name: string;
  isDefault: boolean;
  enabled: boolean;
  template: MessageTemplate;
  config: Record<string, unknown>;
  /** Names of the secret fields that hold a value. */
  secretsSet: readonly string[];
  fallbackChannelId: number | null;
  failThreshold: number;
  quietHours: ChannelQuietHours;
}

/** A channel another one names (fallback, reroute) by key; one without a key drops. */
const channelRef = (keys: ReadonlyMap<number, string>, id: number | null): string | null =>
  id === null ? null : (keys.get(id) ?? null);

export function channelEntryOf(
  c: ChannelResource,
  key: string,
  /** Keys of the channels, for the ones this channel names. */
  channelKeys: ReadonlyMap<number, string>,
  secretValue?: SecretValue,
): ChannelEntry {
  const { rerouteChannelId, ...quiet } = c.quietHours;
  const entry: Record<string, unknown> = {
    key,
    kind: c.kind,
    name: c.name,
    isDefault: c.isDefault,
    enabled: c.enabled,
    template: c.template,
    failThreshold: c.failThreshold,
    config: structuredClone(c.config),
    fallbackChannel: channelRef(channelKeys, c.fallbackChannelId),
    quietHours: {
      ...structuredClone(quiet),
      rerouteChannel: channelRef(channelKeys, rerouteChannelId),
    },
    secrets: {},
  };
  const stored = (slot: SecretSlot) => c.secretsSet.includes(String(slot.path[1]));
  fillSecrets('channels', entry, secretValue ?? asReference(stored));
  return ChannelEntry.parse(entry);
}

export function statusPageEntryOf(
  page: StatusPage,
  key: string,
  monitorKeys: ReadonlyMap<number, string>,
  channelKeys: ReadonlyMap<number, string>,
  /** The page's logo as a data: URI; left out of the entry when the page has none. */
  logo?: string,
): StatusPageEntry {
  const { emailChannelId, ...flags } = page.subscriptions;
  return StatusPageEntry.parse({
    key,
    ...(logo === undefined ? {} : { logo }),
    slug: page.slug,
    title: page.title,
    description: page.description,
    customDomain: page.customDomain,
    sections: page.sections.map((s) => ({
      title: s.title,
      components: s.components.map((c) => ({
        monitor: byKey(monitorKeys, c.monitorId),
        displayName: c.displayName,
        description: c.description,
        showLocations: c.showLocations,
      })),
    })),
    show: page.show,
    theme: page.theme,
    footer: page.footer,
    published: page.published,
    timeZone: page.timeZone,
    subscriptions: {
      ...flags,
      emailChannel: emailChannelId === null ? null : byKey(channelKeys, emailChannelId),
    },
  });
}

export function maintenanceEntryOf(
  w: MaintenanceInput,
  key: string,
  monitorKeys: ReadonlyMap<number, string>,
): MaintenanceEntry {
  return MaintenanceEntry.parse({
    key,
    title: w.title,
    description: w.description,
    timezone: w.timezone,
    scope:
      w.scope.kind === 'all'
        ? w.scope
        : {
            kind: 'monitors',
            monitors: w.scope.monitorIds.map((id) => byKey(monitorKeys, id)).sort(),
          },
    schedule: w.schedule,
  });
}

/** An SLO as an entry: its subject's monitor and page by key (ADR 74). */
export function sloEntryOf(
  s: SloSettings,
  key: string,
  monitorKeys: ReadonlyMap<number, string>,
  pageKeys: ReadonlyMap<number, string>,
): SloEntry {
  const subject = s.subject;
  return SloEntry.parse({
    key,
    name: s.name,
    subject:
      subject.kind === 'tag'
        ? subject
        : subject.kind === 'monitor'
          ? { kind: 'monitor', monitor: byKey(monitorKeys, subject.monitorId) }
          : {
              kind: 'component',
              statusPage: byKey(pageKeys, subject.statusPageId),
              monitor: byKey(monitorKeys, subject.monitorId),
            },
    target: s.target,
    window: s.window,
    timeZone: s.timeZone,
    countDegraded: s.countDegraded,
    excludeMaintenance: s.excludeMaintenance,
    latency: s.latency,
    alerts: s.alerts,
  });
}

/** The document with every list in key order. */
export function documentOf(parts: Omit<ConfigDocument, 'version' | '$schema'>): ConfigDocument {
  const sorted = <T extends { key: string }>(list: T[]) =>
    [...list].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    version: configDocumentVersion,
    channels: sorted(parts.channels),
    monitors: sorted(parts.monitors),
    statusPages: sorted(parts.statusPages),
    maintenance: sorted(parts.maintenance),
    slos: sorted(parts.slos),
  };
}
