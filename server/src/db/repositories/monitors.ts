import type { MonitorInput } from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { MonitorRecord } from '../../domain/monitor.js';
import { HOUR_MS, hourBucket } from '../../domain/windows.js';
import type { DB } from '../schema.js';
import { setMonitorChannels } from './notification-channels.js';
import { locationsOf } from './location-results.js';
import {
  columns,
  definitionColumns,
  pushColumns,
  sealedColumns,
  toRecord,
  type PushTarget,
  type PushTokenWrite,
  type SealedWrite,
  type UptimeRow,
} from './monitor-columns.js';

export type { PushTarget, PushTokenWrite, SealedWrite, UptimeRow } from './monitor-columns.js';

/** Rows deleted per statement when a monitor's history goes. */
const DELETE_BATCH = 5000;

/** Monitors per multi-row insert: about 40 columns each, well under both engines' limits. */
const INSERT_CHUNK = 500;
/** Channel links per insert (two columns each). */
const LINK_CHUNK = 2_000;

/** One monitor of `insertMany`: what `insert` takes. */
export interface NewMonitor {
  input: MonitorInput;
  push: PushTokenWrite | null;
  sealed: SealedWrite | null;
  channelIds: readonly number[];
}

/** Ids per `in (…)` list: well under both engines' limits on bound parameters. */
const ID_CHUNK = 1_000;

export function monitorsRepository(db: Kysely<DB>) {
  return {
    /**
     * `sealed` is what is kept sealed apart from the settings, if anything;
     * `channelIds` the channels it alerts through, linked in the same transaction.
     */
    async insert(
      input: MonitorInput,
      now: number,
      push: PushTokenWrite | null = null,
      sealed: SealedWrite | null = null,
      channelIds: readonly number[] = [],
    ): Promise<MonitorRecord> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('monitors')
          .values({
            ...definitionColumns(input),
            ...(push ? pushColumns(push) : {}),
            ...sealedColumns(sealed),
            created_at: now,
            updated_at: now,
          })
          .returning(columns)
          .executeTakeFirstOrThrow();
        await setMonitorChannels(trx, row.id, channelIds);
        return toRecord(row);
      });
    },

    /**
     * Inserts many monitors with their channel links in a few statements (a configuration
     * apply of thousands): the same rows as `insert`, in the order given.
     */
    async insertMany(items: readonly NewMonitor[], now: number): Promise<MonitorRecord[]> {
      if (items.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        const records: MonitorRecord[] = [];
        for (let i = 0; i < items.length; i += INSERT_CHUNK) {
          const values = items.slice(i, i + INSERT_CHUNK).map((item) => ({
            ...definitionColumns(item.input),
            ...(item.push ? pushColumns(item.push) : {}),
            ...sealedColumns(item.sealed),
            created_at: now,
            updated_at: now,
          }));
          const rows = await trx.insertInto('monitors').values(values).returning(columns).execute();
          // RETURNING promises no order; the ids do follow the rows' order in VALUES.
          rows.sort((a, b) => a.id - b.id);
          rows.forEach((row, k) => {
            if (row.name !== values[k]!.name)
              throw new Error('inserted monitors came back out of order');
            records.push(toRecord(row));
          });
        }
        const links = records.flatMap((record, k) =>
          [...new Set(items[k]!.channelIds)].map((channel_id) => ({
            monitor_id: record.id,
            channel_id,
          })),
        );
        for (let i = 0; i < links.length; i += LINK_CHUNK) {
          await trx
            .insertInto('monitor_channels')
            .values(links.slice(i, i + LINK_CHUNK))
            .execute();
        }
        return records;
      });
    },

    /**
     * Replaces the definition; a changed type or target starts over from pending. `push`
     * sets (or with null clears) the push token; undefined keeps it. `sealed` replaces what is
     * sealed apart; `channelIds` replaces the channel links (undefined keeps them).
     */
    async replace(
      id: number,
      input: MonitorInput,
      now: number,
      resetState: boolean,
      push?: PushTokenWrite | null,
      sealed: SealedWrite | null = null,
      channelIds?: readonly number[],
    ) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('monitors')
          .set({
            ...definitionColumns(input),
            ...(push === undefined ? {} : pushColumns(push)),
            ...sealedColumns(sealed),
            updated_at: now,
            ...(resetState
              ? { status: 'pending', failures: 0, status_changed_at: null, last_details: null }
              : {}),
          })
          .where('id', '=', id)
          .returning(columns)
          .executeTakeFirst();
        if (!row) return null;
        if (channelIds) await setMonitorChannels(trx, id, channelIds);
        return toRecord(row);
      });
    },

    async setPaused(id: number, paused: boolean, now: number): Promise<MonitorRecord | null> {
      const row = await db
        .updateTable('monitors')
        .set({ paused: paused ? 1 : 0, updated_at: now })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** A new token for the push URL; the old one stops working at once. */
    async setPushToken(
      id: number,
      push: PushTokenWrite,
      now: number,
    ): Promise<MonitorRecord | null> {
      const row = await db
        .updateTable('monitors')
        .set({ push_token: push.token, push_token_hash: push.hash, updated_at: now })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async findPushTarget(tokenHash: string): Promise<PushTarget | null> {
      const row = await db
        .selectFrom('monitors')
        .select(['id', 'type', 'paused', 'degraded_threshold_ms', 'push_token', 'push_started_at'])
        .where('push_token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row && row.push_token !== null
        ? {
            id: row.id,
            type: row.type,
            paused: row.paused === 1,
            degradedThresholdMs: row.degraded_threshold_ms,
            token: row.push_token,
            startedAt: row.push_started_at,
          }
        : null;
    },

    async markPushStarted(id: number, at: number): Promise<void> {
      await db.updateTable('monitors').set({ push_started_at: at }).where('id', '=', id).execute();
    },

    /** A finished run's ping: remembered as the last one; its start is used up. */
    async markPinged(id: number, at: number): Promise<void> {
      await db
        .updateTable('monitors')
        .set({ last_ping_at: at, push_started_at: null })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Deletes a monitor and its history. A year of 60 s checks is half a million rows: removed
     * in small batches first, yielding between them, so neither SQLite's single writer nor the
     * event loop is held for seconds; the cascade then only mops up what arrived meanwhile.
     */
    async remove(id: number, batch = DELETE_BATCH): Promise<boolean> {
      for (;;) {
        const res = await db
          .deleteFrom('check_results')
          .where(
            'id',
            'in',
            db.selectFrom('check_results').select('id').where('monitor_id', '=', id).limit(batch),
          )
          .executeTakeFirst();
        if (Number(res.numDeletedRows) < batch) break;
        await yieldToLoop();
      }
      for (const table of ['rollup_minute', 'rollup_hour'] as const) {
        for (;;) {
          const first = await db
            .selectFrom(table)
            .select('bucket')
            .where('monitor_id', '=', id)
            .orderBy('bucket')
            .offset(batch - 1)
            .limit(1)
            .executeTakeFirst();
          if (!first) break;
          await db
            .deleteFrom(table)
            .where('monitor_id', '=', id)
            .where('bucket', '<=', first.bucket)
            .execute();
          await yieldToLoop();
        }
      }
      const res = await db.deleteFrom('monitors').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /** The monitors of `ids` that exist, 1,000 ids a statement (a bulk action's thousands). */
    async findByIds(ids: readonly number[]): Promise<MonitorRecord[]> {
      const out: MonitorRecord[] = [];
      for (let i = 0; i < ids.length; i += 1_000) {
        const rows = await db
          .selectFrom('monitors')
          .select(columns)
          .where('id', 'in', ids.slice(i, i + 1_000))
          .execute();
        for (const r of rows) out.push(toRecord(r));
      }
      return withLocations(db, out);
    },

    async findById(id: number): Promise<MonitorRecord | null> {
      const row = await db
        .selectFrom('monitors')
        .select(columns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? ((await withLocations(db, [toRecord(row)]))[0] ?? null) : null;
    },

    async list(): Promise<MonitorRecord[]> {
      const rows = await db
        .selectFrom('monitors')
        .select(columns)
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    async listActive(): Promise<MonitorRecord[]> {
      const rows = await db
        .selectFrom('monitors')
        .select(columns)
        .where('paused', '=', 0)
        .execute();
      return withLocations(db, rows.map(toRecord), true);
    },

    /**
     * Active monitors whose id `keep` accepts (a scheduler's partitions): ids first, then the
     * rows of the kept ones in chunks, so a process taking a third of 100,000 monitors reads
     * a third of the rows.
     */
    async listActiveWhere(keep: (id: number) => boolean): Promise<MonitorRecord[]> {
      const ids = await db.selectFrom('monitors').select('id').where('paused', '=', 0).execute();
      const wanted = ids.map((r) => Number(r.id)).filter(keep);
      const out: MonitorRecord[] = [];
      for (let i = 0; i < wanted.length; i += ID_CHUNK) {
        const rows = await db
          .selectFrom('monitors')
          .select(columns)
          .where('id', 'in', wanted.slice(i, i + ID_CHUNK))
          .where('paused', '=', 0)
          .execute();
        for (const row of rows) out.push(toRecord(row));
      }
      return withLocations(db, out, true);
    },

    /** Checks per monitor over the last 24 hourly buckets (24–25 h), from the hourly rollup. */
    async uptime24h(now: number, monitorId?: number): Promise<UptimeRow[]> {
      let q = db
        .selectFrom('rollup_hour')
        .select((eb) => [
          'monitor_id as monitorId',
          eb.fn.sum<number>('checks').as('checks'),
          eb.fn.sum<number>('up').as('up'),
          eb.fn.sum<number>('degraded').as('degraded'),
        ])
        .where('bucket', '>=', hourBucket(now) - 24 * HOUR_MS)
        .groupBy('monitor_id');
      // Naming the monitors makes both engines walk the (monitor_id, bucket) key, 25 rows per
      // monitor; `bucket >= …` alone scans a year of hours on SQLite (~0.7 s at 1,000 monitors).
      q =
        monitorId !== undefined
          ? q.where('monitor_id', '=', monitorId)
          : q.where('monitor_id', 'in', db.selectFrom('monitors').select('id'));
      return q.execute();
    },
  };
}

export type MonitorsRepository = ReturnType<typeof monitorsRepository>;

/**
 * Sets each record's chosen locations (ADR 58) for the scheduler. `all`: the whole (small)
 * link table in one read, for start-up's many monitors; otherwise only these monitors' links.
 */
async function withLocations(
  db: Kysely<DB>,
  records: MonitorRecord[],
  all = false,
): Promise<MonitorRecord[]> {
  if (records.length === 0) return records;
  const links = all
    ? await allLocations(db)
    : await locationsOf(
        db,
        records.map((r) => r.id),
      );
  if (links.size === 0) return records;
  for (const r of records) {
    const chosen = links.get(r.id);
    if (chosen) r.locations = chosen;
  }
  return records;
}

async function allLocations(db: Kysely<DB>): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const rows = await db
    .selectFrom('monitor_locations')
    .select(['monitor_id', 'location_id'])
    .orderBy('location_id')
    .execute();
  for (const r of rows) {
    const id = Number(r.monitor_id);
    out.set(id, [...(out.get(id) ?? []), r.location_id]);
  }
  return out;
}
