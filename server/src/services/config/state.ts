import type { ConfigKind, StatusPage } from '@pagewatch/contract';
import type { Repositories } from '../../db/repositories/index.js';
import type { ChannelRecord } from '../../db/repositories/notification-channels.js';
import type { MaintenanceRecord } from '../../domain/maintenance/window.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { StoredSlo } from '../../db/repositories/slos.js';
import { logoData } from '../../config-as-code/logo.js';

/** A stored resource with its config bookkeeping. */
export interface Held<T> {
  id: number;
  key: string | null;
  managed: boolean;
  /** The definition the last apply wrote (secrets as digests), for drift. */
  applied: string | null;
  resource: T;
}

/** Everything a document describes, as stored now. */
export interface ConfigState {
  channels: Held<ChannelRecord>[];
  monitors: Held<MonitorRecord>[];
  statusPages: Held<StatusPage>[];
  maintenance: Held<MaintenanceRecord>[];
  slos: Held<StoredSlo>[];
  /** Monitor id → the ids of the channels it alerts through. */
  links: Map<number, number[]>;
  /** Status page id → its logo as a data: URI, for the pages that have one. */
  logos: Map<number, string>;
  /** Monitor id → its locations and quorum, for monitors not placed by default (ADR 70). */
  placements: Map<number, MonitorPlacement>;
}

/** Where a monitor is checked: location ids, sorted, and k (null: a majority). */
export interface MonitorPlacement {
  locations: string[];
  quorum: number | null;
}

async function hold<T extends { id: number }>(
  repos: Repositories,
  kind: ConfigKind,
  resources: readonly T[],
): Promise<Held<T>[]> {
  const marks = new Map((await repos.configKeys.marks(kind)).map((m) => [m.id, m]));
  return resources.map((resource) => {
    const mark = marks.get(resource.id);
    return {
      id: resource.id,
      key: mark?.key ?? null,
      managed: mark?.managed ?? false,
      applied: mark?.applied ?? null,
      resource,
    };
  });
}

export async function loadState(repos: Repositories): Promise<ConfigState> {
  const pages: StatusPage[] = [];
  const logos = new Map<number, string>();
  for (const item of await repos.statusPages.list()) {
    const page = await repos.statusPages.findById(item.id);
    if (!page) continue;
    pages.push(page);
    const logo = page.logoUrl === null ? null : await repos.statusPages.getLogo(page.id);
    if (logo) logos.set(page.id, logoData(logo.type, logo.bytes));
  }
  const links = new Map<number, number[]>();
  for (const { monitorId, channelId } of await repos.configKeys.monitorChannels()) {
    links.set(monitorId, [...(links.get(monitorId) ?? []), channelId]);
  }
  return {
    channels: await hold(repos, 'channels', await repos.notificationChannels.list()),
    monitors: await hold(repos, 'monitors', await repos.monitors.list()),
    statusPages: await hold(repos, 'statusPages', pages),
    maintenance: await hold(repos, 'maintenance', await repos.maintenance.list()),
    slos: await hold(repos, 'slos', await repos.slos.list()),
    links,
    logos,
    placements: await repos.monitorLocations.placements(),
  };
}

/** Key → id of every keyed resource of a kind. */
export const idsByKey = (held: readonly Held<unknown>[]): Map<string, number> =>
  new Map(held.flatMap((h) => (h.key === null ? [] : [[h.key, h.id] as const])));

/** Id → key of every keyed resource of a kind. */
export const keysById = (held: readonly Held<unknown>[]): Map<number, string> =>
  new Map(held.flatMap((h) => (h.key === null ? [] : [[h.id, h.key] as const])));
