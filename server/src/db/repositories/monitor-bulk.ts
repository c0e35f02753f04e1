import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../schema.js';
import { insertAuditRows, type AuditWrite } from './audit.js';

/** Ids per `in (…)` list and rows per insert: well under both engines' bound-parameter limits. */
const CHUNK = 1_000;

/** What a bulk action needs to know of a monitor before it changes it. */
export interface BulkRow {
  id: number;
  name: string;
  managed: boolean;
  timeout: number;
  tags: string[];
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The writes of one bulk action, all inside one transaction. */
function bulkWrites(trx: Transaction<DB>) {
  /** Sets the same columns on every monitor of `ids`; returns those still there. */
  async function set(
    ids: readonly number[],
    values: { paused?: number; interval_s?: number },
    now: number,
  ): Promise<number[]> {
    const done: number[] = [];
    for (const part of chunks(ids)) {
      const rows = await trx
        .updateTable('monitors')
        .set({ ...values, updated_at: now })
        .where('id', 'in', part)
        .returning('id')
        .execute();
      for (const r of rows) done.push(Number(r.id));
    }
    return done;
  }

  return {
    /** The monitors of `ids` that exist now, by id. */
    async rows(ids: readonly number[]): Promise<BulkRow[]> {
      const out: BulkRow[] = [];
      for (const part of chunks([...new Set(ids)])) {
        const rows = await trx
          .selectFrom('monitors')
          .select(['id', 'name', 'managed_by_config', 'timeout_s', 'tags'])
          .where('id', 'in', part)
          .execute();
        for (const r of rows) {
          out.push({
            id: Number(r.id),
            name: r.name,
            managed: Number(r.managed_by_config) === 1,
            timeout: r.timeout_s,
            tags: JSON.parse(r.tags) as string[],
          });
        }
      }
      return out.sort((a, b) => a.id - b.id);
    },

    set,

    /** Each monitor's own new tags; returns those still there. */
    async setTags(tags: ReadonlyMap<number, readonly string[]>, now: number): Promise<number[]> {
      const done: number[] = [];
      for (const [id, list] of tags) {
        const row = await trx
          .updateTable('monitors')
          .set({ tags: JSON.stringify(list), updated_at: now })
          .where('id', '=', id)
          .returning('id')
          .executeTakeFirst();
        if (row) done.push(id);
      }
      return done;
    },

    /** Replaces the channel links of every monitor of `ids`; returns those still there. */
    async setChannels(
      ids: readonly number[],
      channelIds: readonly number[],
      now: number,
    ): Promise<number[]> {
      const done = await set(ids, {}, now);
      for (const part of chunks(done)) {
        await trx.deleteFrom('monitor_channels').where('monitor_id', 'in', part).execute();
      }
      const links = done.flatMap((monitor_id) =>
        channelIds.map((channel_id) => ({ monitor_id, channel_id })),
      );
      for (const part of chunks(links)) {
        await trx.insertInto('monitor_channels').values(part).execute();
      }
      return done;
    },

    /** The audit lines of the action, committed with it. */
    async audit(entries: readonly AuditWrite[]): Promise<void> {
      await insertAuditRows(trx, entries);
    },
  };
}

export type BulkWrites = ReturnType<typeof bulkWrites>;

export function monitorBulkRepository(db: Kysely<DB>) {
  return {
    /** Runs one bulk action's reads and writes in one transaction. */
    async transaction<T>(work: (writes: BulkWrites) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => work(bulkWrites(trx)));
    },
  };
}
