import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** A parent that holds a child's alerts (ADR 41). */
export interface HoldingParent {
  id: number;
  name: string;
}

/**
 * The first parent of `monitorId` that is down, or failing towards a DOWN (its retries are
 * still confirming it): while one is, the child's bad status is not announced. One indexed
 * query, run only when the rules would announce (ADR 41).
 */
export async function holdingParent(db: Db, monitorId: number): Promise<HoldingParent | null> {
  const row = await db
    .selectFrom('monitor_parents as mp')
    .innerJoin('monitors as p', 'p.id', 'mp.parent_id')
    .select(['p.id', 'p.name'])
    .where('mp.monitor_id', '=', monitorId)
    .where((eb) => eb.or([eb('p.status', '=', 'down'), eb('p.failures', '>', 0)]))
    .where('p.paused', '=', 0)
    .orderBy('p.id')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: Number(row.id), name: row.name } : null;
}

/** A monitor shown as "down, parent X down". */
export interface HeldMonitor {
  monitorId: number;
  parent: HoldingParent;
}

export function monitorParentsRepository(db: Kysely<DB>) {
  return {
    /** The parents of one monitor, in id order. */
    async parentsOf(monitorId: number): Promise<{ id: number; name: string; status: string }[]> {
      const rows = await db
        .selectFrom('monitor_parents as mp')
        .innerJoin('monitors as p', 'p.id', 'mp.parent_id')
        .select(['p.id', 'p.name', 'p.status'])
        .where('mp.monitor_id', '=', monitorId)
        .orderBy('p.id')
        .execute();
      return rows.map((r) => ({ id: Number(r.id), name: r.name, status: r.status }));
    },

    /** The monitors that depend on one monitor, in id order. */
    async childrenOf(parentId: number): Promise<{ id: number; name: string; status: string }[]> {
      const rows = await db
        .selectFrom('monitor_parents as mp')
        .innerJoin('monitors as c', 'c.id', 'mp.monitor_id')
        .select(['c.id', 'c.name', 'c.status'])
        .where('mp.parent_id', '=', parentId)
        .orderBy('c.id')
        .execute();
      return rows.map((r) => ({ id: Number(r.id), name: r.name, status: r.status }));
    },

    /** Every link, for cycle checks (a few rows a monitor at most). */
    async allLinks(): Promise<{ monitorId: number; parentId: number }[]> {
      const rows = await db
        .selectFrom('monitor_parents')
        .select(['monitor_id', 'parent_id'])
        .orderBy('monitor_id')
        .orderBy('parent_id')
        .execute();
      return rows.map((r) => ({ monitorId: Number(r.monitor_id), parentId: Number(r.parent_id) }));
    },

    /** Which of `ids` are monitors, with their names. */
    async names(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('monitors')
        .select(['id', 'name'])
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [Number(r.id), r.name]));
    },

    /** Replaces a monitor's parents in one transaction. */
    async setParents(monitorId: number, parentIds: readonly number[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('monitor_parents').where('monitor_id', '=', monitorId).execute();
        if (parentIds.length === 0) return;
        await trx
          .insertInto('monitor_parents')
          .values(parentIds.map((parent_id) => ({ monitor_id: monitorId, parent_id })))
          .execute();
      });
    },

    /** Monitors that are down while a parent of theirs is down: one join. */
    async held(): Promise<HeldMonitor[]> {
      const rows = await db
        .selectFrom('monitor_parents as mp')
        .innerJoin('monitors as c', 'c.id', 'mp.monitor_id')
        .innerJoin('monitors as p', 'p.id', 'mp.parent_id')
        .select(['c.id as child', 'p.id as parent', 'p.name as parentName'])
        .where('c.status', '=', 'down')
        .where('p.status', '=', 'down')
        .orderBy('c.id')
        .orderBy('p.id')
        .execute();
      const out: HeldMonitor[] = [];
      for (const r of rows) {
        const monitorId = Number(r.child);
        if (out.at(-1)?.monitorId === monitorId) continue;
        out.push({ monitorId, parent: { id: Number(r.parent), name: r.parentName } });
      }
      return out;
    },
  };
}
