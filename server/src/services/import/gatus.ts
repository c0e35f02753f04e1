import type {
  ConfigApplyReport,
  ConfigKind,
  ImportItem,
  ImportItemKind,
  ImportReport,
} from '@pagewatch/contract';
import { importLimits } from '@pagewatch/contract';
import type { Repositories } from '../../db/repositories/index.js';
import type { RequestContext } from '../../domain/actor.js';
import {
  firstEnvReference,
  gatusProblem,
  mapGatus,
  substituteEnv,
  type GatusImportPlan,
} from '../../config-as-code/importers/gatus/index.js';
import { sha256 } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { tallyImport } from './outcomes.js';
import { audit } from '../audit/record.js';
import { applyDocument, type AppliedIds } from '../config/apply.js';
import type { ServiceDeps } from '../deps.js';

const kindOf: Record<ImportItemKind, ConfigKind> = {
  monitor: 'monitors',
  channel: 'channels',
  statusPage: 'statusPages',
  maintenance: 'maintenance',
};

async function keysBefore(repos: Repositories, kind: ConfigKind): Promise<Set<string>> {
  return new Set((await repos.configKeys.marks(kind)).flatMap((m) => (m.key ? [m.key] : [])));
}

/**
 * In the apply's transaction: what this import created is handed to the UI (an import is a
 * starting point, not a file to manage), and push monitors get their Gatus tokens.
 */
async function afterApply(
  deps: ServiceDeps,
  plan: GatusImportPlan,
  before: Record<'channels' | 'monitors', Set<string>>,
  repos: Repositories,
  ids: AppliedIds,
): Promise<void> {
  for (const kind of ['channels', 'monitors'] as const) {
    for (const [key, id] of ids[kind]) {
      if (before[kind].has(key)) continue;
      await repos.configKeys.detach(kind, id);
      const token = kind === 'monitors' ? plan.pushTokens.get(key) : undefined;
      if (!token) continue;
      const hash = sha256(token);
      if (await repos.monitors.findPushTarget(hash)) {
        plan.items
          .find((i) => i.key === key)
          ?.notes.push('Another monitor here already has its token: it gets a new push URL');
        continue;
      }
      await repos.monitors.setPushToken(id, { token, hash }, deps.clock.now());
    }
  }
}

function finalItems(plan: GatusImportPlan, applied: ConfigApplyReport): ImportItem[] {
  return plan.items.map((item) => {
    if (item.key === null || item.outcome !== 'created') return item;
    const skipped = applied[kindOf[item.kind]].skipped.includes(item.key);
    return skipped ? { ...item, outcome: 'existing' } : item;
  });
}

/** The uploaded text: UTF-8 within the limit, with no environment reference left in it. */
export function gatusText(bytes: Uint8Array): string {
  if (bytes.length > importLimits.bytesMax) {
    throw new AppError('payload_too_large', 'Import files are limited to 20 MiB');
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const ref = firstEnvReference(text);
  if (ref) {
    // The server has no business reading its own environment into someone's configuration.
    throw gatusProblem(
      'env_reference',
      `line ${ref.line}: $${ref.name} is an environment variable; import with \`npx pagewatch import gatus\`, which substitutes it from your environment, or write its value`,
    );
  }
  // `$$` is Gatus's literal `$`; the CLI writes every `$` of its substituted text so.
  return substituteEnv(text, {});
}

/**
 * Imports a Gatus configuration (issue 15): mapped into a configuration document and written
 * by the config apply in create-only mode, in one transaction with the push tokens. `dryRun`
 * does all of it and rolls back, so the preview is the real outcome.
 */
export async function importGatus(
  deps: ServiceDeps,
  ctx: RequestContext,
  bytes: Uint8Array,
  options: { dryRun: boolean },
): Promise<ImportReport> {
  const plan = mapGatus(gatusText(bytes));
  const before = {
    channels: await keysBefore(deps.repos, 'channels'),
    monitors: await keysBefore(deps.repos, 'monitors'),
  };
  const { report } = await applyDocument(deps, ctx, plan.document, {
    mode: 'create-only',
    dryRun: options.dryRun,
    within: async ({ repos, ids }) => afterApply(deps, plan, before, repos, ids),
  });
  const items = finalItems(plan, report);
  const { counts, summary } = tallyImport(plan.origin, items);
  if (!options.dryRun) await audit(deps, ctx, 'import.gatus', null, summary);
  return {
    source: 'gatus',
    origin: plan.origin,
    dryRun: options.dryRun,
    items,
    counts,
    history: { monitors: 0, days: 0, hours: 0, minutes: 0 },
  };
}
