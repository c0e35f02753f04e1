import {
  configKinds,
  type ConfigApplyMode,
  type ConfigDriftEntry,
  type ConfigKind,
  type ConfigDocument,
  type ConfigKindReport,
  type ConfigPlan,
  type ConfigPlanAction,
  type ConfigPlanEntry,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { logoSummary } from '../../config-as-code/logo.js';
import { resolveSecrets } from '../../config-as-code/secrets.js';
import type { ServiceDeps } from '../deps.js';
import { applyDocument } from './apply.js';
import { propertyChanges } from './diff.js';
import { driftOf } from './drift.js';
import { liveEntries, planToken, type LiveEntry } from './live.js';

type Live = Record<ConfigKind, LiveEntry[]>;

export interface PlanOptions {
  env?: Readonly<Record<string, string>>;
  mode?: ConfigApplyMode;
  prune?: boolean;
}

const actionOf: [keyof ConfigKindReport, ConfigPlanAction][] = [
  ['created', 'create'],
  ['updated', 'update'],
  ['unchanged', 'unchanged'],
  ['skipped', 'skip'],
  ['detached', 'detach'],
  ['deleted', 'delete'],
];

/**
 * The stored and wanted entries as the diff compares them: a logo the file leaves out is kept
 * (no change), and a logo shows as its type, size and hash.
 */
function comparable(kind: ConfigKind, stored: unknown, wanted: unknown): [unknown, unknown] {
  if (kind !== 'statusPages') return [stored, wanted];
  const s = { ...(stored as Record<string, unknown>) };
  const w = { ...(wanted as Record<string, unknown>) };
  if (w.logo === undefined) delete s.logo;
  if ('logo' in s) s.logo = logoSummary(s.logo);
  if ('logo' in w) w.logo = logoSummary(w.logo);
  return [s, w];
}

/**
 * POST /api/v1/config/plan: the apply's own dry run says what happens to each key, the stored
 * and the file entries of each update say which properties change, and the token fingerprints
 * the state the dry run started from.
 */
export async function planDocument(
  deps: ServiceDeps,
  ctx: RequestContext,
  document: ConfigDocument,
  options: PlanOptions = {},
): Promise<ConfigPlan> {
  const env = options.env ?? {};
  const box = deps.secrets;
  let seen: { live: Live; token: string; drift: ConfigDriftEntry[] } | undefined;
  const { report } = await applyDocument(deps, ctx, document, {
    ...options,
    dryRun: true,
    // The very state the dry run starts from, read once, in its transaction.
    onState: (state) => {
      const live = liveEntries(state, box);
      seen = { live, token: planToken(state, box, live), drift: driftOf(state, live, box) };
    },
  });
  if (!seen) throw new Error('The dry run did not report its state');
  const { live, token, drift } = seen;
  const { document: resolved } = resolveSecrets(document, env);
  const entries: ConfigPlanEntry[] = [];
  const summary = { create: 0, update: 0, unchanged: 0, skip: 0, detach: 0, delete: 0, drift: 0 };
  for (const kind of configKinds) {
    const stored = new Map(live[kind].map((e) => [e.key, e.entry]));
    const wanted = new Map<string, unknown>(resolved[kind].map((e) => [e.key, e]));
    for (const [field, action] of actionOf) {
      for (const key of report[kind][field]) {
        const changes =
          action === 'update'
            ? propertyChanges(kind, ...comparable(kind, stored.get(key), wanted.get(key)), true)
            : [];
        entries.push({ kind, key, action, changes });
        summary[action] += 1;
      }
    }
  }
  summary.drift = drift.length;
  return { token, mode: report.mode, prune: report.prune, entries, drift, summary };
}
