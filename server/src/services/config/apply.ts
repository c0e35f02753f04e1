import {
  configKinds,
  type ConfigApplyMode,
  type ConfigApplyReport,
  type ConfigDocument,
  type ConfigKind,
  type ConfigKindReport,
  type FieldError,
} from '@pagewatch/contract';
import type { Repositories } from '../../db/repositories/index.js';
import type { RequestContext } from '../../domain/actor.js';
import { showPath, type DocPath } from '../../config-as-code/paths.js';
import { crossChecks } from '../../config-as-code/references.js';
import { resolveSecrets, type UnresolvedSecret } from '../../config-as-code/secrets.js';
import { documentPath } from '../../config-as-code/to-inputs.js';
import { AppError, validationFailed } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/crypto.js';
import { EventHub } from '../../lib/event-hub.js';
import type { ServiceDeps } from '../deps.js';
import { EntryFailure, kindOps, type KindOps } from './ops.js';
import { recordApplied } from './drift.js';
import { planToken } from './live.js';
import { loadState, type ConfigState, type Held } from './state.js';

export interface ApplyOptions {
  /** Values of the document's `${env:NAME}` references. */
  env?: Readonly<Record<string, string>>;
  mode?: ConfigApplyMode;
  prune?: boolean;
  /** Everything is done, then rolled back: the report of what would happen. */
  dryRun?: boolean;
  /** A plan's token: refused with `conflict` when the live state is no longer the planned one. */
  planToken?: string;
  /** Sees the state the apply starts from, before any write (a plan's token and drift). */
  onState?: (state: ConfigState) => void;
  /** Runs in the same transaction once the document is written (an importer's history). */
  within?: (tx: { repos: Repositories; ids: AppliedIds }) => Promise<void>;
}

/** Key → id of what the document names, per kind (created ones included). */
export type AppliedIds = Record<ConfigKind, Map<string, number>>;

export interface ApplyResult {
  report: ConfigApplyReport;
  ids: AppliedIds;
}

const ORDER = configKinds;

const emptyKind = (): ConfigKindReport => ({
  created: [],
  updated: [],
  unchanged: [],
  skipped: [],
  detached: [],
  deleted: [],
});

/** Thrown to roll a dry run back, carrying its result out of the transaction. */
class RolledBack extends Error {
  constructor(readonly result: ApplyResult) {
    super('dry run');
  }
}

interface Run {
  repos: Repositories;
  mode: ConfigApplyMode;
  unresolved: readonly UnresolvedSecret[];
  report: ConfigApplyReport;
  ids: AppliedIds;
}

const within = (path: DocPath, prefix: DocPath) => prefix.every((step, i) => path[i] === step);

/** A service's refusal of entry `at`, its field paths made the document's. */
function atEntry(err: unknown, at: DocPath, run: Run): unknown {
  if (!(err instanceof AppError) || (err.type !== 'validation_failed' && err.type !== 'conflict'))
    return err;
  const errors: FieldError[] = (err.errors ?? [{ path: '', message: err.message, code: 'x' }]).map(
    (e) => {
      const path: DocPath = [...at, ...documentPath(e.path)];
      const missing = run.unresolved.find((u) => showPath(u.path) === showPath(path));
      const message = missing
        ? `Set the environment variable ${missing.name}: no value is stored to keep`
        : e.message;
      return { ...e, path: showPath(['document', ...path]), message };
    },
  );
  return new AppError(err.type, `${showPath(at)}: ${errors[0]?.message ?? err.message}`, errors);
}

/** A new resource has nothing stored to keep: each reference needs its variable's value. */
function refuseMissingSecrets(run: Run, at: DocPath): void {
  const missing = run.unresolved.filter((u) => within(u.path, at));
  if (missing.length === 0) return;
  const errors = missing.map((u) => ({
    path: showPath(['document', ...u.path]),
    message: `Set the environment variable ${u.name}: a new resource has no secret to keep`,
    code: 'missing_secret',
  }));
  throw validationFailed(errors, `${showPath(at)}: ${errors[0]?.message ?? ''}`);
}

async function writeKind<E extends { key: string }, R>(
  run: Run,
  kind: ConfigKind,
  entries: readonly E[],
  held: readonly Held<R>[],
  ops: KindOps<E, R>,
): Promise<void> {
  const byKey = new Map(held.flatMap((h) => (h.key === null ? [] : [[h.key, h] as const])));
  // Every known key's id first: an entry may name another of its kind (a group its members)
  // written later in the document.
  for (const entry of entries) {
    const h = byKey.get(entry.key);
    if (h) run.ids[kind].set(entry.key, h.id);
  }
  // Entries naming new ones of their kind wait until those exist: in waves, each writing the
  // entries whose every named key has an id.
  let waiting = entries.map((entry, i) => ({ entry, at: [kind, i] as DocPath }));
  while (waiting.length > 0) {
    const known = (item: { entry: E }) =>
      (ops.names?.(item.entry) ?? []).every((k) => run.ids[kind].has(k));
    const ready = waiting.filter(known);
    if (ready.length === 0) {
      const first = waiting[0]!;
      throw atEntry(
        validationFailed([
          {
            path: ops.namesPath ?? 'members',
            message: `These ${kind} name each other in a circle: none can be created first`,
            code: 'reference_cycle',
          },
        ]),
        first.at,
        run,
      );
    }
    await writeEntries(run, kind, ready, byKey, ops);
    waiting = waiting.filter((item) => !ready.includes(item));
  }
}

async function writeEntries<E extends { key: string }, R>(
  run: Run,
  kind: ConfigKind,
  items: readonly { entry: E; at: DocPath }[],
  byKey: ReadonlyMap<string, Held<R>>,
  ops: KindOps<E, R>,
): Promise<void> {
  const report = run.report[kind];
  const created: { id: number; key: string }[] = [];
  // New entries of a kind that creates in batches wait for one createMany after the loop.
  const fresh: { entry: E; at: DocPath }[] = [];
  for (const { entry, at } of items) {
    const h = byKey.get(entry.key);
    if (!h) refuseMissingSecrets(run, at);
    try {
      if (h) {
        if (run.mode === 'create-only') report.skipped.push(entry.key);
        else if (ops.same(h, entry)) report.unchanged.push(entry.key);
        else {
          await ops.update(h.id, entry);
          report.updated.push(entry.key);
        }
        if (run.mode === 'upsert' && !h.managed) {
          await run.repos.configKeys.mark(kind, h.id, entry.key, true);
        }
        continue;
      }
      if (ops.createMany) {
        fresh.push({ entry, at });
        continue;
      }
      const id = await ops.create(entry);
      run.ids[kind].set(entry.key, id);
      created.push({ id, key: entry.key });
      report.created.push(entry.key);
    } catch (err) {
      throw atEntry(err, at, run);
    }
  }
  if (ops.createMany && fresh.length > 0) {
    let ids: number[];
    try {
      ids = await ops.createMany(fresh);
    } catch (err) {
      if (err instanceof EntryFailure) throw atEntry(err.failure, err.at, run);
      throw err;
    }
    fresh.forEach(({ entry }, k) => {
      run.ids[kind].set(entry.key, ids[k]!);
      created.push({ id: ids[k]!, key: entry.key });
      report.created.push(entry.key);
    });
  }
  await run.repos.configKeys.markMany(kind, created, true);
}

/** Managed resources the document no longer has: detached, or deleted when pruning. */
async function removeAbsent<R>(
  run: Run,
  kind: ConfigKind,
  entries: readonly { key: string }[],
  held: readonly Held<R>[],
  ops: KindOps<unknown, R>,
  prune: boolean,
): Promise<void> {
  const keep = new Set(entries.map((e) => e.key));
  for (const h of held) {
    if (!h.managed || h.key === null || keep.has(h.key)) continue;
    if (prune) {
      await ops.remove(h.id);
      run.report[kind].deleted.push(h.key);
    } else {
      await run.repos.configKeys.detach(kind, h.id);
      run.report[kind].detached.push(h.key);
    }
  }
}

function refuseStalePlan(state: ConfigState, box: SecretBox, token: string | undefined): void {
  if (token === undefined || planToken(state, box) === token) return;
  throw new AppError(
    'conflict',
    'The configuration on the server changed since this plan was made; nothing was written. ' +
      'Run plan again, check its changes, and apply with the new token.',
    [
      {
        path: 'planToken',
        message: 'The live configuration changed since the plan',
        code: 'stale_plan',
      },
    ],
  );
}

function refuseBrokenReferences(document: ConfigDocument): void {
  const errors = crossChecks(document).filter((p) => p.severity === 'error');
  if (errors.length === 0) return;
  throw validationFailed(
    errors.map((p) => ({
      path: showPath(['document', ...p.path]),
      message: p.message,
      code: 'reference',
    })),
    `The document has ${errors.length} error(s); nothing was written`,
  );
}

/**
 * Writes a configuration document in one transaction (ADR 28): new keys are created, known
 * keys updated (create-only: left alone), managed resources the document lacks detached or,
 * with `prune`, deleted. Resources without a key are never touched. All or nothing.
 */
export async function applyDocument(
  deps: ServiceDeps,
  ctx: RequestContext,
  document: ConfigDocument,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  refuseBrokenReferences(document);
  if (!deps.transact) throw new Error('applyDocument needs deps.transact');
  const mode = options.mode ?? 'upsert';
  const prune = options.prune ?? false;
  const dryRun = options.dryRun ?? false;
  const { document: resolved, unresolved } = resolveSecrets(document, options.env ?? {});
  // Events wait for the commit: a rolled-back apply announces nothing.
  const hub = new EventHub();
  const events: Parameters<EventHub['publish']>[0][] = [];
  hub.subscribe(({ event }) => events.push(event));
  try {
    const result = await deps.transact(async (repos) => {
      const { transact: _own, ...rest } = deps;
      const tx: ServiceDeps = { ...rest, repos, hub, maintenance: null };
      const state = await loadState(repos);
      refuseStalePlan(state, deps.secrets, options.planToken);
      options.onState?.(state);
      const run: Run = {
        repos,
        mode,
        unresolved,
        report: {
          dryRun,
          mode,
          prune,
          channels: emptyKind(),
          monitors: emptyKind(),
          statusPages: emptyKind(),
          maintenance: emptyKind(),
          slos: emptyKind(),
        },
        ids: {
          channels: new Map(),
          monitors: new Map(),
          statusPages: new Map(),
          maintenance: new Map(),
          slos: new Map(),
        },
      };
      const ops = kindOps(tx, ctx, state, run.ids);
      await writeKind(run, 'channels', resolved.channels, state.channels, ops.channels);
      await writeKind(run, 'monitors', resolved.monitors, state.monitors, ops.monitors);
      await writeKind(run, 'statusPages', resolved.statusPages, state.statusPages, ops.statusPages);
      await writeKind(run, 'maintenance', resolved.maintenance, state.maintenance, ops.maintenance);
      // SLOs last: their subjects name monitors and status pages' components.
      await writeKind(run, 'slos', resolved.slos, state.slos, ops.slos);
      if (mode === 'upsert') {
        for (const kind of [...ORDER].reverse()) {
          const held = state[kind] as Held<unknown>[];
          await removeAbsent(
            run,
            kind,
            resolved[kind],
            held,
            ops[kind] as KindOps<unknown, unknown>,
            prune,
          );
        }
      }
      // A dry run is rolled back: its baselines would be too.
      if (!dryRun) await recordApplied(repos, deps.secrets, run.report, state);
      const result = { report: run.report, ids: run.ids };
      await options.within?.({ repos, ids: run.ids });
      if (dryRun) throw new RolledBack(result);
      return result;
    });
    for (const event of events) deps.hub.publish(event);
    await deps.maintenance?.ready();
    return result;
  } catch (err) {
    if (err instanceof RolledBack) return err.result;
    throw err;
  }
}
