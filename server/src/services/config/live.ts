import { createHash } from 'node:crypto';
import { configKinds, type ConfigKind } from '@pagewatch/contract';
import {
  channelEntryOf,
  maintenanceEntryOf,
  monitorEntryOf,
  sloEntryOf,
  statusPageEntryOf,
} from '../../config-as-code/from-resources.js';
import type { SecretBox } from '../../lib/crypto.js';
import { openSecrets, secretNames } from '../notification-channels/secrets.js';
import { canonical, monitorSecrets } from './compare.js';
import type { ConfigState, Held } from './state.js';

/** A stored resource as a document entry, secrets opened (never to leave the server). */
export interface LiveEntry {
  id: number;
  key: string;
  managed: boolean;
  entry: Record<string, unknown>;
}

const keyOf = (h: Held<unknown>) => h.key ?? `#${h.id}`;
const keyMap = (held: readonly Held<unknown>[]) => new Map(held.map((h) => [h.id, keyOf(h)]));

/** Channel secrets, or none when they were sealed with another key. */
function channelSecrets(c: ConfigState['channels'][number]['resource'], box: SecretBox) {
  try {
    return openSecrets(c, box);
  } catch {
    return {};
  }
}

/** Entry of one resource; a record that no longer reads as an entry counts by its raw text. */
function entryOr(h: Held<unknown>, make: () => unknown): Record<string, unknown> {
  try {
    return make() as Record<string, unknown>;
  } catch {
    return { unreadable: h.resource };
  }
}

/**
 * The entries of a state, made once: a plan's token, its drift and its comparisons all read
 * them, and making one is a schema parse and opened secrets per resource. Entries are shared:
 * never changed by a reader.
 */
const made = new WeakMap<ConfigState, { box: SecretBox; live: Record<ConfigKind, LiveEntry[]> }>();

/** Every stored resource of every kind as an entry; resources without a key get `#id`. */
export function liveEntries(state: ConfigState, box: SecretBox): Record<ConfigKind, LiveEntry[]> {
  const kept = made.get(state);
  if (kept?.box === box) return kept.live;
  const live = makeLiveEntries(state, box);
  made.set(state, { box, live });
  return live;
}

function makeLiveEntries(state: ConfigState, box: SecretBox): Record<ConfigKind, LiveEntry[]> {
  const channelKeys = keyMap(state.channels);
  const monitorKeys = keyMap(state.monitors);
  const pageKeys = keyMap(state.statusPages);
  const live = <R>(held: readonly Held<R>[], make: (h: Held<R>, key: string) => unknown) =>
    held.map((h) => ({
      id: h.id,
      key: keyOf(h),
      managed: h.managed,
      entry: entryOr(h, () => make(h, keyOf(h))),
    }));
  return {
    channels: live(state.channels, (h, key) => {
      const secrets = channelSecrets(h.resource, box);
      const resource = { ...h.resource, secretsSet: secretNames(secrets) };
      return channelEntryOf(resource, key, channelKeys, (slot) => {
        const value = secrets[String(slot.path[1])];
        return typeof value === 'string' && value !== '' ? value : undefined;
      });
    }),
    monitors: live(state.monitors, (h, key) => {
      const { headers, credential } = monitorSecrets(h.resource, box);
      const linked = (state.links.get(h.id) ?? []).map((id) => channelKeys.get(id) ?? `#${id}`);
      return monitorEntryOf(
        h.resource,
        key,
        linked,
        (slot) => (slot.secretIndex === undefined ? credential : headers[slot.secretIndex]),
        monitorKeys,
        state.placements.get(h.id),
      );
    }),
    statusPages: live(state.statusPages, (h, key) =>
      statusPageEntryOf(h.resource, key, monitorKeys, channelKeys, state.logos.get(h.id)),
    ),
    maintenance: live(state.maintenance, (h, key) =>
      maintenanceEntryOf(h.resource, key, monitorKeys),
    ),
    slos: live(state.slos, (h, key) => sloEntryOf(h.resource, key, monitorKeys, pageKeys)),
  };
}

/**
 * The plan token (ADR 28): a digest of every stored definition with its key and managed flag,
 * secrets included, so any write an apply could meet changes it. Check results do not.
 */
export function planToken(
  state: ConfigState,
  box: SecretBox,
  live: Record<ConfigKind, LiveEntry[]> = liveEntries(state, box),
): string {
  const hash = createHash('sha256');
  for (const kind of configKinds) {
    for (const e of live[kind]) {
      hash.update(canonical([kind, e.id, e.key, e.managed, e.entry]));
      hash.update('\n');
    }
  }
  return `v1.${hash.digest('base64url')}`;
}
