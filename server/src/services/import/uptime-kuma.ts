import type {
  ConfigApplyReport,
  ConfigKind,
  ImportItem,
  ImportItemKind,
  ImportReport,
} from '@pagewatch/contract';
import type { Repositories } from '../../db/repositories/index.js';
import type { RequestContext } from '../../domain/actor.js';
import type { RollupDelta, RollupLevel } from '../../domain/rollup.js';
import { mapKuma, type KumaImportPlan } from '../../config-as-code/importers/uptime-kuma/index.js';
import { sha256 } from '../../lib/crypto.js';
import { tallyImport } from './outcomes.js';
import { audit } from '../audit/record.js';
import { applyDocument, type AppliedIds } from '../config/apply.js';
import type { ServiceDeps } from '../deps.js';
import { readKumaUpload } from './kuma-upload.js';

const kindOf: Record<ImportItemKind, ConfigKind> = {
  monitor: 'monitors',
  channel: 'channels',
  statusPage: 'statusPages',
  maintenance: 'maintenance',
};

type History = ImportReport['history'];

/** Keys each kind held before this import: what the import creates is the rest. */
async function keysBefore(repos: Repositories): Promise<Record<ConfigKind, Set<string>>> {
  const of = async (kind: ConfigKind) =>
    new Set((await repos.configKeys.marks(kind)).flatMap((m) => (m.key ? [m.key] : [])));
  return {
    channels: await of('channels'),
    monitors: await of('monitors'),
    statusPages: await of('statusPages'),
    maintenance: await of('maintenance'),
    slos: await of('slos'),
  };
}

/** Gives a new push monitor its Kuma token, unless a monitor here already answers to it. */
async function keepPushToken(
  deps: ServiceDeps,
  plan: KumaImportPlan,
  repos: Repositories,
  key: string,
  id: number,
): Promise<void> {
  const token = plan.pushTokens.get(key);
  if (!token) return;
  const hash = sha256(token);
  if (await repos.monitors.findPushTarget(hash)) {
    plan.items
      .find((i) => i.key === key)
      ?.notes.push('Another monitor here already has its push token: it gets a new push URL');
    return;
  }
  await repos.monitors.setPushToken(id, { token, hash }, deps.clock.now());
}

/**
 * What only an importer writes, in the apply's transaction: the new resources are handed to
 * the UI (an import is a starting point, not a file to manage), push monitors get their Kuma
 * tokens back, and new monitors get Kuma's statistics as rollups.
 */
async function afterApply(
  deps: ServiceDeps,
  plan: KumaImportPlan,
  before: Record<ConfigKind, Set<string>>,
  repos: Repositories,
  ids: AppliedIds,
): Promise<History> {
  const history: History = { monitors: 0, days: 0, hours: 0, minutes: 0 };
  const byLevel: Record<RollupLevel, RollupDelta[]> = { minute: [], hour: [], day: [] };
  for (const kind of ['channels', 'monitors', 'statusPages', 'maintenance'] as const) {
    for (const [key, id] of ids[kind]) {
      if (before[kind].has(key)) continue;
      await repos.configKeys.detach(kind, id);
      if (kind !== 'monitors') continue;
      await keepPushToken(deps, plan, repos, key, id);
      const rollups = plan.history.get(key) ?? [];
      if (rollups.length > 0) history.monitors += 1;
      for (const r of rollups) byLevel[r.level].push({ ...r.delta, monitorId: id });
    }
  }
  for (const level of ['minute', 'hour', 'day'] as const) {
    await repos.rollupImport.add(level, byLevel[level]);
  }
  history.minutes = byLevel.minute.length;
  history.hours = byLevel.hour.length;
  history.days = byLevel.day.length;
  return history;
}

/**
 * A Kuma page whose address or domain another page here already has would refuse the whole
 * import: it gets a free address (`acme-kuma`) or no custom domain instead, with a note.
 */
async function avoidTakenAddresses(deps: ServiceDeps, plan: KumaImportPlan): Promise<void> {
  const pages = await deps.repos.statusPages.list();
  const keyed = new Set(
    (await deps.repos.configKeys.marks('statusPages')).flatMap((m) => (m.key ? [m.key] : [])),
  );
  const slugs = new Set(pages.map((p) => p.slug));
  const domains = new Set(pages.flatMap((p) => (p.customDomain ? [p.customDomain] : [])));
  for (const entry of plan.document.statusPages) {
    if (keyed.has(entry.key)) continue;
    const item = plan.items.find((i) => i.key === entry.key);
    if (slugs.has(entry.slug)) {
      const base = `${entry.slug.slice(0, 57)}-kuma`;
      let slug = base;
      for (let n = 2; slugs.has(slug); n++) slug = `${base}-${n}`;
      item?.notes.push(`Another page here has /status/${entry.slug}: this one is /status/${slug}`);
      entry.slug = slug;
    }
    slugs.add(entry.slug);
    if (entry.customDomain !== null && domains.has(entry.customDomain)) {
      item?.notes.push(
        `Another page here answers on ${entry.customDomain}: this one has no custom domain`,
      );
      entry.customDomain = null;
    }
  }
}

/** The mapper's items with what the apply did to their keys. */
function finalItems(plan: KumaImportPlan, applied: ConfigApplyReport): ImportItem[] {
  return plan.items.map((item) => {
    if (item.key === null || item.outcome !== 'created') return item;
    const skipped = applied[kindOf[item.kind]].skipped.includes(item.key);
    return skipped ? { ...item, outcome: 'existing' } : item;
  });
}

/**
 * Imports an Uptime Kuma database or backup (issue 15): read, mapped into a configuration
 * document, written by the config apply in create-only mode — one transaction with the push
 * tokens and history, so a bad file or a refused entry leaves nothing behind. `dryRun` does
 * all of it and rolls back: the preview is the real outcome.
 */
export async function importUptimeKuma(
  deps: ServiceDeps,
  ctx: RequestContext,
  bytes: Uint8Array,
  options: { dryRun: boolean },
): Promise<ImportReport> {
  const plan = mapKuma(await readKumaUpload(bytes, deps.clock.now()));
  await avoidTakenAddresses(deps, plan);
  const before = await keysBefore(deps.repos);
  let history: History = { monitors: 0, days: 0, hours: 0, minutes: 0 };
  const { report } = await applyDocument(deps, ctx, plan.document, {
    mode: 'create-only',
    dryRun: options.dryRun,
    within: async ({ repos, ids }) => {
      history = await afterApply(deps, plan, before, repos, ids);
    },
  });
  const items = finalItems(plan, report);
  const { counts, summary } = tallyImport(plan.origin, items);
  if (!options.dryRun) await audit(deps, ctx, 'import.uptime_kuma', null, summary);
  return {
    source: 'uptime-kuma',
    origin: plan.origin,
    dryRun: options.dryRun,
    items,
    counts,
    history,
  };
}
