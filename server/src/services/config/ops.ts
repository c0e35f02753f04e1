import {
  ChannelCreateInput,
  ChannelUpdateInput,
  MaintenanceInput,
  MonitorInput,
  SloInput,
  StatusPageInput,
  toFieldErrors,
  type ChannelEntry,
  type ConfigKind,
  type MaintenanceEntry,
  type MonitorEntry,
  type SloEntry,
  type StatusPageEntry,
} from '@pagewatch/contract';
import type { z } from 'zod';
import type { RequestContext } from '../../domain/actor.js';
import type { DocPath } from '../../config-as-code/paths.js';
import { logoOf } from '../../config-as-code/logo.js';
import {
  maintenanceEntryOf,
  sloEntryOf,
  statusPageEntryOf,
} from '../../config-as-code/from-resources.js';
import {
  channelInput,
  channelKeysNamed,
  sloInput,
  maintenanceInput,
  monitorInput,
  monitorKeysNamed,
  placementOf,
  statusPageInput,
  type KeyIds,
} from '../../config-as-code/to-inputs.js';
import { AppError, validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { createWindow, removeWindow, updateWindow } from '../maintenance/manage.js';
import { createMonitor, createMonitors } from '../monitors/create.js';
import { removeMonitor } from '../monitors/remove.js';
import { updateMonitor } from '../monitors/update.js';
import { setMonitorLocations } from '../monitor-locations/set.js';
import { createChannel } from '../notification-channels/create.js';
import { removeChannel } from '../notification-channels/remove.js';
import { updateChannel } from '../notification-channels/update.js';
import { createStatusPage } from '../status-pages/create.js';
import { removeStatusPage } from '../status-pages/remove.js';
import { removeLogo } from '../status-pages/remove-logo.js';
import { uploadLogo } from '../status-pages/upload-logo.js';
import { updateStatusPage } from '../status-pages/update.js';
import { deleteSlo, storeNewSlo, storeSlo } from '../slos/manage.js';
import { canonical, sameChannel, sameEntry } from './compare.js';
import { liveEntries } from './live.js';
import { keysById, type ConfigState, type Held } from './state.js';

/** A failure of one entry of a batch, with where that entry is in the document. */
export class EntryFailure extends Error {
  constructor(
    readonly at: DocPath,
    readonly failure: unknown,
  ) {
    super('an entry of the batch failed');
  }
}

/** How one kind of resource is compared, created, updated and removed by the apply. */
export interface KindOps<E, R> {
  same(held: Held<R>, entry: E): boolean;
  create(entry: E): Promise<number>;
  /**
   * Creates many new entries at once, ids in the order given; an entry's own refusal is an
   * EntryFailure. Kinds with thousands of entries (monitors) have it.
   */
  createMany?(entries: readonly { entry: E; at: DocPath }[]): Promise<number[]>;
  /** Keys of other entries of its kind this entry names (a group's members, a fallback). */
  names?(entry: E): readonly string[];
  /** The field a circle of such names is reported at (default `members`). */
  namesPath?: string;
  update(id: number, entry: E): Promise<void>;
  remove(id: number): Promise<void>;
}

/** The input schema's verdict on what the entry became (resolved secrets, ids for keys). */
function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(toFieldErrors(result.error.issues));
  return result.data;
}

/** False when the stored resource cannot be put as an entry (it names one without a key). */
function sameText(stored: () => unknown, desired: unknown): boolean {
  try {
    return canonical(stored()) === canonical(desired);
  } catch {
    return false;
  }
}

const sortedScope = (entry: MaintenanceEntry): MaintenanceEntry =>
  entry.scope.kind === 'all'
    ? entry
    : { ...entry, scope: { ...entry.scope, monitors: [...entry.scope.monitors].sort() } };

/**
 * A slug or domain another page holds, refused before the write: on PostgreSQL the unique
 * violation would end the whole transaction before the service could name the field.
 */
function refuseTakenAddress(state: ConfigState, entry: StatusPageEntry, id: number | null): void {
  const others = state.statusPages.filter((h) => h.id !== id && h.key !== entry.key);
  const taken = others.find((h) => h.resource.slug === entry.slug)
    ? ('slug' as const)
    : entry.customDomain !== null &&
        others.find((h) => h.resource.customDomain === entry.customDomain)
      ? ('customDomain' as const)
      : null;
  if (taken === null) return;
  const message =
    taken === 'slug'
      ? 'Another status page already uses this slug'
      : 'Another status page already answers on this domain';
  throw new AppError('conflict', message, [{ path: taken, message, code: 'taken' }]);
}

/**
 * Makes the page's logo what the entry says: left out, as it is; null, none; an image, that
 * image (checked as an upload is: its bytes must be the type it claims).
 */
async function syncLogo(
  tx: ServiceDeps,
  ctx: RequestContext,
  id: number,
  stored: string | null,
  wanted: string | null | undefined,
): Promise<void> {
  if (wanted === undefined || wanted === stored) return;
  if (wanted === null) {
    await removeLogo(tx, ctx, id);
    return;
  }
  const { type, bytes } = logoOf(wanted);
  // Its refusals name the field `logo`, as the entry does.
  await uploadLogo(tx, ctx, id, bytes, type);
}

type Ops = {
  channels: KindOps<ChannelEntry, ConfigState['channels'][number]['resource']>;
  monitors: KindOps<MonitorEntry, ConfigState['monitors'][number]['resource']>;
  statusPages: KindOps<StatusPageEntry, ConfigState['statusPages'][number]['resource']>;
  maintenance: KindOps<MaintenanceEntry, ConfigState['maintenance'][number]['resource']>;
  slos: KindOps<SloEntry, ConfigState['slos'][number]['resource']>;
};

/** The operations of every kind, writing through `tx` (the apply's transaction). */
export function kindOps(
  tx: ServiceDeps,
  ctx: RequestContext,
  state: ConfigState,
  ids: KeyIds,
): { [K in ConfigKind]: Ops[K] } {
  const channelKeys = keysById(state.channels);
  const monitorKeys = keysById(state.monitors);
  const pageKeys = keysById(state.statusPages);
  const monitorsById = new Map(state.monitors.map((h) => [h.id, h.resource]));
  let monitorEntries: Map<number, Record<string, unknown>> | null = null;
  // Locations are set after the monitor exists, and only when they differ from what is stored.
  const place = async (id: number, entry: MonitorEntry) => {
    const wanted = placementOf(entry);
    const stored = state.placements.get(id) ?? { locations: ['local'], quorum: null };
    if (canonical(wanted) !== canonical(stored)) await setMonitorLocations(tx, ctx, id, wanted);
  };
  const liveMonitors = () =>
    (monitorEntries ??= new Map(
      liveEntries(state, tx.secrets).monitors.map((e) => [e.id, e.entry] as const),
    ));
  return {
    channels: {
      same: (h, entry) => sameChannel(h.resource, entry, tx.secrets, channelKeys),
      // A channel naming a new one as fallback or reroute waits until that one exists.
      names: (entry) => channelKeysNamed(entry),
      namesPath: 'fallbackChannel',
      create: async (entry) =>
        (await createChannel(tx, ctx, parsed(ChannelCreateInput, channelInput(entry, ids)))).id,
      update: async (id, entry) =>
        void (await updateChannel(
          tx,
          ctx,
          id,
          parsed(ChannelUpdateInput, channelInput(entry, ids)),
        )),
      remove: (id) => removeChannel(tx, ctx, id),
    },
    monitors: {
      // Compared with the state's live entry, made once for the token, drift and this.
      same: (h, entry) => {
        const stored = liveMonitors().get(h.id);
        return stored !== undefined && sameEntry('monitors', entry, stored);
      },
      create: async (entry) => {
        const { id } = await createMonitor(tx, ctx, parsed(MonitorInput, monitorInput(entry, ids)));
        await place(id, entry);
        return id;
      },
      names: (entry) => monitorKeysNamed(entry),
      createMany: async (fresh) => {
        const inputs = fresh.map(({ entry, at }) => {
          try {
            return parsed(MonitorInput, monitorInput(entry, ids));
          } catch (err) {
            throw new EntryFailure(at, err);
          }
        });
        const created = (await createMonitors(tx, ctx, inputs)).map((m) => m.id);
        for (const [i, { entry, at }] of fresh.entries()) {
          try {
            await place(created[i]!, entry);
          } catch (err) {
            throw new EntryFailure(at, err);
          }
        }
        return created;
      },
      update: async (id, entry) => {
        const input = parsed(MonitorInput, monitorInput(entry, ids));
        // Links already as the entry says are left alone: no rewrite, no "channelIds" in the
        // audit line. The monitor was read with the state, in this transaction.
        const linked = [...new Set(state.links.get(id) ?? [])].sort((a, b) => a - b);
        const wanted = [...new Set(input.channelIds ?? [])].sort((a, b) => a - b);
        const same = input.channelIds !== undefined && canonical(linked) === canonical(wanted);
        // A change of locations alone writes no monitor update (nor its audit line).
        const stored = liveMonitors().get(id);
        const { locations: _l, quorum: _q, ...unplaced } = entry;
        if (
          stored &&
          sameEntry('monitors', unplaced, { ...stored, locations: undefined, quorum: undefined })
        ) {
          await place(id, entry);
          return;
        }
        await updateMonitor(
          tx,
          ctx,
          id,
          same ? { ...input, channelIds: undefined } : input,
          monitorsById.get(id),
        );
        await place(id, entry);
      },
      remove: (id) => removeMonitor(tx, ctx, id),
    },
    statusPages: {
      same: (h, entry) =>
        sameText(
          () =>
            statusPageEntryOf(
              h.resource,
              entry.key,
              monitorKeys,
              channelKeys,
              // A file that leaves the logo out keeps it: it is not compared.
              entry.logo === undefined ? undefined : state.logos.get(h.id),
            ),
          entry.logo === null ? { ...entry, logo: undefined } : entry,
        ),
      create: async (entry) => {
        refuseTakenAddress(state, entry, null);
        const { id } = await createStatusPage(
          tx,
          ctx,
          parsed(StatusPageInput, statusPageInput(entry, ids)),
        );
        await syncLogo(tx, ctx, id, null, entry.logo);
        return id;
      },
      update: async (id, entry) => {
        refuseTakenAddress(state, entry, id);
        await updateStatusPage(tx, ctx, id, parsed(StatusPageInput, statusPageInput(entry, ids)));
        await syncLogo(tx, ctx, id, state.logos.get(id) ?? null, entry.logo);
      },
      remove: (id) => removeStatusPage(tx, ctx, id),
    },
    maintenance: {
      same: (h, entry) =>
        sameText(() => maintenanceEntryOf(h.resource, entry.key, monitorKeys), sortedScope(entry)),
      create: async (entry) =>
        (await createWindow(tx, ctx, parsed(MaintenanceInput, maintenanceInput(entry, ids)))).id,
      update: async (id, entry) =>
        void (await updateWindow(
          tx,
          ctx,
          id,
          parsed(MaintenanceInput, maintenanceInput(entry, ids)),
        )),
      remove: (id) => removeWindow(tx, ctx, id),
    },
    slos: {
      same: (h, entry) =>
        sameText(() => sloEntryOf(h.resource, entry.key, monitorKeys, pageKeys), entry),
      create: (entry) => storeNewSlo(tx, ctx, parsed(SloInput, sloInput(entry, ids))),
      // An update restarts the SLO's burn-rate alert: only a real change writes one.
      update: (id, entry) => storeSlo(tx, ctx, id, parsed(SloInput, sloInput(entry, ids))),
      remove: (id) => deleteSlo(tx, ctx, id),
    },
  };
}
