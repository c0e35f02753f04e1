import type { MonitorStatus, MonitorType } from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import type { GroupMember } from '../../domain/group/rule.js';
import { referencesOf } from '../../domain/monitor-types.js';
import type { DB } from '../schema.js';

/**
 * The current status of a group's members, straight from the monitors table (ADR 47): the
 * engine writes each result's status there in the result transaction, so it is the cheapest
 * correct source — one primary-key lookup of at most 100 rows, no results read. A paused
 * member counts as paused whatever its last status.
 */
export async function groupMemberStatuses(
  db: Kysely<DB>,
  ids: readonly number[],
): Promise<GroupMember[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('monitors')
    .select(['id', 'name', 'status', 'paused'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    status: (r.paused ? 'paused' : r.status) as MonitorStatus,
  }));
}

/** Names of `ids` that are monitors, and the settings of monitors of `types` (for cycles). */
export async function monitorReferences(
  db: Kysely<DB>,
  ids: readonly number[],
  types: readonly MonitorType[],
): Promise<{ names: Map<number, string>; settings: Map<number, unknown> }> {
  const names = new Map<number, string>();
  if (ids.length > 0) {
    const rows = await db
      .selectFrom('monitors')
      .select(['id', 'name'])
      .where('id', 'in', [...ids])
      .execute();
    for (const r of rows) names.set(Number(r.id), r.name);
  }
  const settings = new Map<number, unknown>();
  if (types.length > 0) {
    const rows = await db
      .selectFrom('monitors')
      .select(['id', 'name', 'config'])
      .where('type', 'in', [...types])
      .execute();
    for (const r of rows) {
      settings.set(Number(r.id), JSON.parse(r.config) as unknown);
      names.set(Number(r.id), r.name);
    }
  }
  return { names, settings };
}

/**
 * Unpaused monitors of `types` whose settings name any of `memberIds` (the groups a flip
 * concerns). Settings are JSON, so the filter runs here over the few monitors of those types.
 */
export async function referencingMonitors(
  db: Kysely<DB>,
  memberIds: readonly number[],
  types: readonly MonitorType[],
): Promise<number[]> {
  if (memberIds.length === 0 || types.length === 0) return [];
  const rows = await db
    .selectFrom('monitors')
    .select(['id', 'type', 'config'])
    .where('type', 'in', [...types])
    .where('paused', '=', 0)
    .orderBy('id')
    .execute();
  const wanted = new Set(memberIds);
  return rows
    .filter((r) =>
      referencesOf(r.type as MonitorType, JSON.parse(r.config) as unknown).some((m) =>
        wanted.has(m),
      ),
    )
    .map((r) => Number(r.id));
}

export function groupMembersRepository(db: Kysely<DB>) {
  return {
    statuses: (ids: readonly number[]) => groupMemberStatuses(db, ids),
    references: (ids: readonly number[], types: readonly MonitorType[]) =>
      monitorReferences(db, ids, types),
    referencing: (memberIds: readonly number[], types: readonly MonitorType[]) =>
      referencingMonitors(db, memberIds, types),
  };
}
