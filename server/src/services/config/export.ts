import { configKinds, type ConfigDocument, type ConfigKind } from '@pagewatch/contract';
import type { Repositories } from '../../db/repositories/index.js';
import {
  channelEntryOf,
  documentOf,
  maintenanceEntryOf,
  monitorEntryOf,
  sloEntryOf,
  statusPageEntryOf,
} from '../../config-as-code/from-resources.js';
import { keyFromName, uniqueKey } from '../../config-as-code/keys.js';
import type { SecretBox } from '../../lib/crypto.js';
import type { ServiceDeps } from '../deps.js';
import { openSecrets, secretNames } from '../notification-channels/secrets.js';
import { keysById, loadState, type ConfigState, type Held } from './state.js';

/** What a key is made from when a resource has none yet. */
const nameOf: { [K in ConfigKind]: (h: ConfigState[K][number]) => string } = {
  channels: (h) => (h as Held<{ name: string }>).resource.name,
  monitors: (h) => (h as Held<{ name: string }>).resource.name,
  statusPages: (h) => (h as Held<{ slug: string }>).resource.slug,
  maintenance: (h) => (h as Held<{ title: string }>).resource.title,
  slos: (h) => (h as Held<{ name: string }>).resource.name,
};

/**
 * Gives every resource without a key one made from its name (de-duplicated), so the exported
 * document applied here again finds them instead of creating copies. Not a change of
 * management: they stay under the UI until a document is applied.
 */
export async function assignKeys(repos: Repositories, state: ConfigState): Promise<void> {
  for (const kind of configKinds) {
    const held: Held<unknown>[] = state[kind];
    const taken = new Set(held.flatMap((h) => (h.key === null ? [] : [h.key])));
    for (const h of held) {
      if (h.key !== null) continue;
      h.key = uniqueKey(keyFromName(nameOf[kind](h as never)), taken);
      await repos.configKeys.mark(kind, h.id, h.key);
    }
  }
}

const keyOf = (h: Held<unknown>): string => {
  if (h.key === null) throw new Error(`Resource ${h.id} has no key`);
  return h.key;
};

/** The stored configuration as a document; every resource must have its key. */
export function documentFromState(state: ConfigState, box: SecretBox): ConfigDocument {
  const channelKeys = keysById(state.channels);
  const monitorKeys = keysById(state.monitors);
  const pageKeys = keysById(state.statusPages);
  return documentOf({
    channels: state.channels.map((h) =>
      channelEntryOf(
        { ...h.resource, secretsSet: secretNames(openSecrets(h.resource, box)) },
        keyOf(h),
        channelKeys,
      ),
    ),
    monitors: state.monitors.map((h) =>
      monitorEntryOf(
        h.resource,
        keyOf(h),
        (state.links.get(h.id) ?? []).map((id) => channelKeys.get(id) ?? String(id)),
        undefined,
        monitorKeys,
        state.placements.get(h.id),
      ),
    ),
    statusPages: state.statusPages.map((h) =>
      statusPageEntryOf(h.resource, keyOf(h), monitorKeys, channelKeys, state.logos.get(h.id)),
    ),
    // A cancelled window is history: applied elsewhere it would be scheduled again.
    maintenance: state.maintenance
      .filter((h) => h.resource.cancelledAt === null)
      .map((h) => maintenanceEntryOf(h.resource, keyOf(h), monitorKeys)),
    slos: state.slos.map((h) => sloEntryOf(h.resource, keyOf(h), monitorKeys, pageKeys)),
  });
}

/** GET /api/v1/export: the whole configuration, keys given to resources that had none. */
export async function exportDocument(deps: ServiceDeps): Promise<ConfigDocument> {
  const run = deps.transact ?? ((work) => work(deps.repos));
  return run(async (repos) => {
    const state = await loadState(repos);
    await assignKeys(repos, state);
    return documentFromState(state, deps.secrets);
  });
}
