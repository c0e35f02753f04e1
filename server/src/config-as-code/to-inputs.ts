import type {
  ChannelCreateInput,
  ChannelEntry,
  MaintenanceEntry,
  MaintenanceInput,
  MonitorEntry,
  MonitorInput,
  SloEntry,
  SloInput,
  StatusPageEntry,
  StatusPageInput,
} from '@pagewatch/contract';
import { referenceFieldOf } from '../domain/monitor-types.js';

/** Ids of the resources the document's keys name, filled in as they are written. */
export interface KeyIds {
  channels: Map<string, number>;
  monitors: Map<string, number>;
  statusPages: Map<string, number>;
}

const idOf = (ids: Map<string, number>, key: string): number => {
  const id = ids.get(key);
  // The cross checks ran first: a key without an id is a bug, not a user error.
  if (id === undefined) throw new Error(`No id for key "${key}"`);
  return id;
};

/** A monitor's input: its channel keys become ids (left out: defaults on create, kept on update). */
export function monitorInput(entry: MonitorEntry, ids: KeyIds): MonitorInput {
  const { key: _key, channels, locations: _locations, quorum: _quorum, ...rest } = entry;
  // Monitors the entry names by key (a group's members) are ids in the input.
  const field = referenceFieldOf(entry.type);
  const refs = field ? (rest as Record<string, unknown>)[field] : undefined;
  return {
    ...rest,
    ...(field && Array.isArray(refs)
      ? { [field]: (refs as string[]).map((k) => idOf(ids.monitors, k)) }
      : {}),
    ...(channels === undefined ? {} : { channelIds: channels.map((k) => idOf(ids.channels, k)) }),
  } as MonitorInput;
}

/** Where an entry says a monitor is checked: left out, `local` only and a majority. */
export function placementOf(entry: MonitorEntry): { locations: string[]; quorum: number | null } {
  return { locations: [...(entry.locations ?? ['local'])].sort(), quorum: entry.quorum ?? null };
}

/** Keys of the monitors an entry names (a group's members): they must exist before it. */
export function monitorKeysNamed(entry: MonitorEntry): string[] {
  const field = referenceFieldOf(entry.type);
  const refs = field ? (entry as Record<string, unknown>)[field] : undefined;
  return Array.isArray(refs) ? (refs as string[]) : [];
}

/** A channel's input (create or update: secrets left out keep the stored ones on update). */
export function channelInput(entry: ChannelEntry, ids: KeyIds): ChannelCreateInput {
  const { key: _key, fallbackChannel, fallbackChannelId: _old, quietHours, ...rest } = entry;
  const { rerouteChannel, rerouteChannelId: _oldReroute, ...quiet } = quietHours;
  return {
    ...rest,
    fallbackChannelId: fallbackChannel === null ? null : idOf(ids.channels, fallbackChannel),
    quietHours: {
      ...quiet,
      rerouteChannelId: rerouteChannel === null ? null : idOf(ids.channels, rerouteChannel),
    },
  } as ChannelCreateInput;
}

/** Keys of the channels a channel names (fallback, reroute): they must exist before it. */
export function channelKeysNamed(entry: ChannelEntry): string[] {
  const named = [entry.fallbackChannel, entry.quietHours.rerouteChannel];
  return named.filter((k): k is string => k !== null && k !== entry.key);
}

/** An SLO's input: its subject's monitor and page keys become ids. */
export function sloInput(entry: SloEntry, ids: KeyIds): SloInput {
  const { key: _key, subject, ...rest } = entry;
  return {
    ...rest,
    subject:
      subject.kind === 'tag'
        ? subject
        : subject.kind === 'monitor'
          ? { kind: 'monitor', monitorId: idOf(ids.monitors, subject.monitor) }
          : {
              kind: 'component',
              statusPageId: idOf(ids.statusPages, subject.statusPage),
              monitorId: idOf(ids.monitors, subject.monitor),
            },
  };
}

export function statusPageInput(entry: StatusPageEntry, ids: KeyIds): StatusPageInput {
  const { key: _key, logo: _logo, sections, subscriptions, ...rest } = entry;
  const { emailChannel, ...flags } = subscriptions;
  return {
    ...rest,
    sections: sections.map((s) => ({
      ...s,
      components: s.components.map(({ monitor, ...c }) => ({
        ...c,
        monitorId: idOf(ids.monitors, monitor),
      })),
    })),
    subscriptions: {
      ...flags,
      emailChannelId: emailChannel === null ? null : idOf(ids.channels, emailChannel),
    },
  };
}

export function maintenanceInput(entry: MaintenanceEntry, ids: KeyIds): MaintenanceInput {
  const { key: _key, scope, ...rest } = entry;
  return {
    ...rest,
    scope:
      scope.kind === 'all'
        ? scope
        : { kind: 'monitors', monitorIds: scope.monitors.map((k) => idOf(ids.monitors, k)) },
  };
}

/** An input's field path (a service's error) as the document's path of the same field. */
export function documentPath(path: string): (string | number)[] {
  const steps = path === '' ? [] : path.split('.');
  return steps.map((step, i) => {
    if (/^\d+$/.test(step)) return Number(step);
    if (step === 'channelIds') return 'channels';
    if (step === 'monitorId') return 'monitor';
    if (step === 'emailChannelId') return 'emailChannel';
    if (step === 'fallbackChannelId') return 'fallbackChannel';
    if (step === 'rerouteChannelId') return 'rerouteChannel';
    if (step === 'statusPageId' && steps[i - 1] === 'subject') return 'statusPage';
    if (step === 'monitorIds' && steps[i - 1] === 'scope') return 'monitors';
    return step;
  });
}
