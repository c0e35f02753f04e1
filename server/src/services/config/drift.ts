import {
  configKinds,
  type ConfigApplyReport,
  type ConfigDriftEntry,
  type ConfigKind,
} from '@pagewatch/contract';
import type { Repositories } from '../../db/repositories/index.js';
import { getAt, setAt } from '../../config-as-code/paths.js';
import { logoSummary } from '../../config-as-code/logo.js';
import { secretSlots } from '../../config-as-code/secrets.js';
import type { SecretBox } from '../../lib/crypto.js';
import { canonical } from './compare.js';
import { propertyChanges } from './diff.js';
import { liveEntries, type LiveEntry } from './live.js';
import { loadState, type ConfigState } from './state.js';

/** An entry as remembered for drift: secrets replaced by keyed digests, never stored in clear. */
export function snapshotOf(kind: ConfigKind, entry: Record<string, unknown>, box: SecretBox) {
  const copy = structuredClone(entry);
  // A logo is remembered by its type, size and hash.
  if (kind === 'statusPages' && 'logo' in copy) copy.logo = logoSummary(copy.logo);
  if (kind === 'monitors' || kind === 'channels') {
    for (const slot of secretSlots(kind, copy)) {
      const value = getAt(copy, slot.path);
      if (typeof value === 'string' && value !== '')
        setAt(copy, slot.path, `digest:${box.digest(value)}`);
    }
  }
  return canonical(copy);
}

const wroteAnything = (report: ConfigApplyReport) =>
  configKinds.some((kind) => {
    const r = report[kind];
    return r.created.length + r.updated.length + r.detached.length + r.deleted.length > 0;
  });

/**
 * After an apply's writes (same transaction): every resource the document wrote or found
 * unchanged remembers its stored definition, the baseline drift is measured from. Only
 * changed baselines are written, so an apply that changes nothing writes nothing here; it
 * also reuses the state read before (`before`), as nothing in it changed.
 */
export async function recordApplied(
  repos: Repositories,
  box: SecretBox,
  report: ConfigApplyReport,
  before: ConfigState,
): Promise<void> {
  const state = wroteAnything(report) ? await loadState(repos) : before;
  const live = liveEntries(state, box);
  for (const kind of configKinds) {
    const r = report[kind];
    const written = new Set([...r.created, ...r.updated, ...r.unchanged]);
    const held = new Map(state[kind].map((h) => [h.id, h.applied] as const));
    const rows = live[kind].flatMap((e) => {
      // Upsert marks every key it wrote managed, create-only the ones it created.
      if (!written.has(e.key)) return [];
      const applied = snapshotOf(kind, e.entry, box);
      return held.get(e.id) === applied ? [] : [{ id: e.id, applied }];
    });
    await repos.configKeys.setApplied(kind, rows);
  }
}

/**
 * A channel baseline as entries are written now: before ADR 74 a channel entry carried
 * `fallbackChannelId` and `quietHours.rerouteChannelId` (the defaults, null: export never wrote
 * them); they are `fallbackChannel` and `rerouteChannel` now, so old baselines are no drift.
 */
export function currentBaseline(kind: ConfigKind, applied: string): string {
  if (kind !== 'channels' || !applied.includes('ChannelId"')) return applied;
  const entry = JSON.parse(applied) as Record<string, unknown>;
  if ('fallbackChannelId' in entry) {
    entry.fallbackChannel ??= null;
    delete entry.fallbackChannelId;
  }
  const quiet = entry.quietHours as Record<string, unknown> | undefined;
  if (quiet && 'rerouteChannelId' in quiet) {
    quiet.rerouteChannel ??= null;
    delete quiet.rerouteChannelId;
  }
  return canonical(entry);
}

/** Managed resources whose live definition is no longer what the last apply wrote. */
export function driftOf(
  state: ConfigState,
  live: Record<ConfigKind, LiveEntry[]>,
  box: SecretBox,
): ConfigDriftEntry[] {
  const drift: ConfigDriftEntry[] = [];
  for (const kind of configKinds) {
    const applied = new Map(state[kind].map((h) => [h.id, h.applied] as const));
    for (const e of live[kind]) {
      const stored = applied.get(e.id);
      if (!e.managed || stored == null) continue;
      const before = currentBaseline(kind, stored);
      const now = snapshotOf(kind, e.entry, box);
      if (now === before) continue;
      const changes = propertyChanges(kind, JSON.parse(before), JSON.parse(now), false).filter(
        (c) => c.secret !== 'unchanged',
      );
      if (changes.length > 0) drift.push({ kind, key: e.key, changes });
    }
  }
  return drift;
}

/** GET /api/v1/config/drift: what a plan would list as drift, without a document. */
export async function currentDrift(
  repos: Repositories,
  box: SecretBox,
): Promise<ConfigDriftEntry[]> {
  const state = await loadState(repos);
  return driftOf(state, liveEntries(state, box), box);
}
