import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';
import type { DB } from '../schema.js';

/** How big the database is now and where it lives (Settings → Data retention). */
export interface DatabaseSize {
  databaseBytes: number;
  /** SQLite's WAL file, included in `databaseBytes`; null on PostgreSQL. */
  walBytes: number | null;
  /** Free space for the database file's folder; null when the database is not on this disk. */
  freeDiskBytes: number | null;
}

/** What history the oldest monitor holds: the start of its oldest row at each grain. */
export interface HistoryReach {
  raw: number | null;
  minute: number | null;
  hour: number | null;
  day: number | null;
}

/** Ids of what "delete all data" removed, for the events that tell the running parts. */
export interface DeletedRows {
  monitorIds: number[];
  statusPageIds: number[];
  maintenanceIds: number[];
  incidents: number;
  notificationChannels: number;
}

/** Children before parents: the order works with and without cascading foreign keys. */
const dataTables = [
  'check_requests',
  'browser_runs',
  'check_results',
  'rollup_minute',
  'rollup_hour',
  'rollup_day',
  'rollup_run_sketches',
  'status_flips',
  'monitor_channels',
  'monitor_parents',
  'monitor_grouping',
  'alert_batch_items',
  'alert_batches',
  'escalations',
  'deliveries',
  'incident_updates',
  'incident_monitors',
  'incidents',
  'status_subscribers',
  'status_page_components',
  'status_page_sections',
  'status_pages',
  'maintenance_windows',
  'tag_policies',
  'escalation_policies',
  'oncall_overrides',
  'oncall_schedules',
  'notification_channels',
  'monitors',
] as const satisfies readonly (keyof DB)[];

const DELETE_BATCH = 5000;

/** Whole-instance reads and the owner's "delete all data"; see docs/configuration.md. */
export function instanceDataRepository(db: Kysely<DB>, engine: Engine) {
  return {
    engine,

    async size(): Promise<DatabaseSize> {
      if (engine === 'postgres') {
        // The schema's own relations (with indexes and TOAST): a shared database holds others.
        const { rows } = await sql<{ bytes: number | null }>`
          select sum(pg_total_relation_size(c.oid))::bigint as bytes
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind in ('r', 'm')`.execute(db);
        return { databaseBytes: Number(rows[0]?.bytes ?? 0), walBytes: null, freeDiskBytes: null };
      }
      const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
      const file = rows.find((r) => r.name === 'main')?.file ?? '';
      if (file === '') {
        const pages = await sql<{ bytes: number }>`
          select page_count * page_size as bytes
          from pragma_page_count(), pragma_page_size()`.execute(db);
        return { databaseBytes: pages.rows[0]?.bytes ?? 0, walBytes: 0, freeDiskBytes: null };
      }
      const bytesOf = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
      const walBytes = bytesOf(`${file}-wal`);
      const disk = fs.statfsSync(path.dirname(file));
      return {
        databaseBytes: bytesOf(file) + walBytes,
        walBytes,
        freeDiskBytes: disk.bavail * disk.bsize,
      };
    },

    /** Active monitors by interval: the checks a minute and the rollup rows they make. */
    async activeIntervals(): Promise<{ intervalS: number; monitors: number }[]> {
      const rows = await db
        .selectFrom('monitors')
        .select(['interval_s', (eb) => eb.fn.countAll<number>().as('n')])
        .where('paused', '=', 0)
        .groupBy('interval_s')
        .execute();
      return rows.map((r) => ({ intervalS: Number(r.interval_s), monitors: Number(r.n) }));
    },

    /**
     * The oldest row of the oldest monitor at each grain, read on the (monitor, time) keys: a
     * stand-in for how much history is held now that costs four index probes, not a count.
     */
    async historyReach(): Promise<HistoryReach> {
      const first = await db
        .selectFrom('monitors')
        .select('id')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!first) return { raw: null, minute: null, hour: null, day: null };
      const id = first.id;
      const oldest = async (table: 'rollup_minute' | 'rollup_hour' | 'rollup_day') => {
        const row = await db
          .selectFrom(table)
          .select('bucket')
          .where('monitor_id', '=', id)
          .orderBy('bucket')
          .limit(1)
          .executeTakeFirst();
        return row ? Number(row.bucket) : null;
      };
      const raw = await db
        .selectFrom('check_results')
        .select('at')
        .where('monitor_id', '=', id)
        .orderBy('at')
        .limit(1)
        .executeTakeFirst();
      return {
        raw: raw ? Number(raw.at) : null,
        minute: await oldest('rollup_minute'),
        hour: await oldest('rollup_hour'),
        day: await oldest('rollup_day'),
      };
    },

    /**
     * Deletes every monitor with its history, incident, status page, channel, delivery and
     * maintenance window; people, sessions, API keys, settings, the audit log and cluster
     * leases stay. History goes first in short batches (a year of results is millions of rows:
     * one statement would hold SQLite's writer and this event loop for seconds), then
     * everything left in one transaction, which also takes what was written meanwhile.
     */
    async deleteAll(batch = DELETE_BATCH): Promise<DeletedRows> {
      for (const table of ['browser_runs', 'check_results'] as const) {
        const key = table === 'browser_runs' ? 'result_id' : 'id';
        for (;;) {
          const res = await db
            .deleteFrom(table)
            .where(key, 'in', (eb) => eb.selectFrom(table).select(key).limit(batch))
            .executeTakeFirst();
          if (Number(res.numDeletedRows) < batch) break;
          await yieldToLoop();
        }
      }
      for (const table of ['rollup_minute', 'rollup_hour', 'rollup_day'] as const) {
        for (;;) {
          const res = await db
            .deleteFrom(table)
            .where((eb) =>
              eb(
                eb.refTuple('monitor_id', 'bucket'),
                'in',
                eb
                  .selectFrom(table)
                  .select(['monitor_id', 'bucket'])
                  .limit(batch)
                  .$asTuple('monitor_id', 'bucket'),
              ),
            )
            .executeTakeFirst();
          if (Number(res.numDeletedRows) < batch) break;
          await yieldToLoop();
        }
      }
      return db.transaction().execute(async (trx) => {
        const ids = async (table: 'monitors' | 'status_pages' | 'maintenance_windows') =>
          (await trx.selectFrom(table).select('id').execute()).map((r) => Number(r.id));
        const count = async (table: 'incidents' | 'notification_channels') =>
          Number(
            (
              await trx
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        const deleted: DeletedRows = {
          monitorIds: await ids('monitors'),
          statusPageIds: await ids('status_pages'),
          maintenanceIds: await ids('maintenance_windows'),
          incidents: await count('incidents'),
          notificationChannels: await count('notification_channels'),
        };
        for (const table of dataTables) await trx.deleteFrom(table).execute();
        return deleted;
      });
    },
  };
}

export type InstanceDataRepository = ReturnType<typeof instanceDataRepository>;
