import type { AlertEvent, SloSettings, SloSubject } from '@pagewatch/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { BucketCounts, BurnAlertState } from '../../domain/slo/index.js';
import { levelMs, type RollupLevel } from '../../domain/rollup.js';
import type { DB, SlosTable } from '../schema.js';
import { channelsOfMonitors, insertFor } from './deliveries.js';
import { tableOf } from './rollups.js';

/** Monitors per statement, well under both engines' parameter limits. */
const ID_CHUNK = 500;

export interface MonitorBucket extends BucketCounts {
  monitorId: number;
  bucket: number;
}

/** An SLO as stored: its settings plus the burn-rate alert's open state. */
export interface StoredSlo extends SloSettings {
  id: number;
  alertState: BurnAlertState;
  alertSince: number | null;
  createdAt: number;
  updatedAt: number;
}

const columns = [
  'id',
  'name',
  'subject_kind',
  'monitor_id',
  'tag',
  'status_page_id',
  'target',
  'window',
  'time_zone',
  'count_degraded',
  'exclude_maintenance',
  'latency_percent',
  'latency_threshold_ms',
  'alerts',
  'alert_state',
  'alert_since',
  'created_at',
  'updated_at',
] as const;

type Row = Pick<Selectable<SlosTable>, (typeof columns)[number]>;

function subjectOf(r: Row): SloSubject {
  if (r.subject_kind === 'tag') return { kind: 'tag', tag: r.tag ?? '' };
  if (r.subject_kind === 'component')
    return {
      kind: 'component',
      statusPageId: Number(r.status_page_id),
      monitorId: Number(r.monitor_id),
    };
  return { kind: 'monitor', monitorId: Number(r.monitor_id) };
}

function toSlo(r: Row): StoredSlo {
  return {
    id: Number(r.id),
    name: r.name,
    subject: subjectOf(r),
    target: Number(r.target),
    window: r.window as StoredSlo['window'],
    timeZone: r.time_zone,
    countDegraded: Number(r.count_degraded) === 1,
    excludeMaintenance: Number(r.exclude_maintenance) === 1,
    latency:
      r.latency_percent === null || r.latency_threshold_ms === null
        ? null
        : { percent: Number(r.latency_percent), thresholdMs: Number(r.latency_threshold_ms) },
    alerts: Number(r.alerts) === 1,
    alertState: r.alert_state === 'page' || r.alert_state === 'ticket' ? r.alert_state : null,
    alertSince: r.alert_since === null ? null : Number(r.alert_since),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toRow(s: SloSettings, now: number) {
  const subject = s.subject;
  return {
    name: s.name,
    subject_kind: subject.kind,
    monitor_id: subject.kind === 'tag' ? null : subject.monitorId,
    tag: subject.kind === 'tag' ? subject.tag : null,
    status_page_id: subject.kind === 'component' ? subject.statusPageId : null,
    target: s.target,
    window: s.window,
    time_zone: s.timeZone,
    count_degraded: s.countDegraded ? 1 : 0,
    exclude_maintenance: s.excludeMaintenance ? 1 : 0,
    latency_percent: s.latency?.percent ?? null,
    latency_threshold_ms: s.latency?.thresholdMs ?? null,
    alerts: s.alerts ? 1 : 0,
    updated_at: now,
  };
}

/** SLO definitions (ADR 52); their figures are computed, never stored. */
export function slosRepository(db: Kysely<DB>) {
  return {
    async list(): Promise<StoredSlo[]> {
      const rows = await db
        .selectFrom('slos')
        .select(columns)
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map(toSlo);
    },

    /**
     * A token that changes whenever an SLO is added, edited or removed: the burn-rate
     * evaluator re-reads the list only when it moved. An edit always raises the row's
     * `updated_at` (see update), so the sum moves even when two edits share a millisecond.
     */
    async version(): Promise<string> {
      const r = await db
        .selectFrom('slos')
        .select((eb) => [
          eb.fn.countAll().as('n'),
          eb.fn.max('id').as('last'),
          sql<string>`cast(sum(updated_at) as text)`.as('edits'),
        ])
        .executeTakeFirstOrThrow();
      return `${Number(r.n)}:${Number(r.last)}:${r.edits ?? ''}`;
    },

    async find(id: number): Promise<StoredSlo | null> {
      const r = await db.selectFrom('slos').select(columns).where('id', '=', id).executeTakeFirst();
      return r ? toSlo(r) : null;
    },

    async create(s: SloSettings, now: number): Promise<number> {
      const r = await db
        .insertInto('slos')
        .values({ ...toRow(s, now), created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(r.id);
    },

    /** A changed definition starts its alert afresh: the old breach was judged by other rules. */
    async update(id: number, s: SloSettings, now: number): Promise<boolean> {
      const r = await db
        .updateTable('slos')
        .set({
          ...toRow(s, now),
          // Strictly later than the last edit, even within one millisecond (see version).
          updated_at: sql<number>`case when updated_at >= ${now} then updated_at + 1 else ${now} end`,
          alert_state: null,
          alert_since: null,
        })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async remove(id: number): Promise<boolean> {
      const r = await db.deleteFrom('slos').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** Names of monitors and pages an SLO's subject points at, for labels and checks. */
    async monitorNames(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('monitors')
        .select(['id', 'name'])
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [Number(r.id), r.name]));
    },

    /**
     * The start of each monitor's first stored hour: an SLO measures no time before its
     * monitor's history begins (imported history included).
     */
    async firstHours(ids: readonly number[]): Promise<Map<number, number>> {
      const out = new Map<number, number>();
      for (let i = 0; i < ids.length; i += ID_CHUNK) {
        const rows = await db
          .selectFrom('rollup_hour')
          .select((eb) => ['monitor_id', eb.fn.min('bucket').as('first')])
          .where('monitor_id', 'in', ids.slice(i, i + ID_CHUNK))
          .groupBy('monitor_id')
          .execute();
        for (const r of rows) out.set(Number(r.monitor_id), Number(r.first));
      }
      return out;
    },

    async pageTitles(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('status_pages')
        .select(['id', 'title'])
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [Number(r.id), r.title]));
    },

    /** Whether the page shows the monitor as a component. */
    async isComponent(pageId: number, monitorId: number): Promise<boolean> {
      const r = await db
        .selectFrom('status_page_components')
        .select('id')
        .where('page_id', '=', pageId)
        .where('monitor_id', '=', monitorId)
        .executeTakeFirst();
      return r !== undefined;
    },

    /** Every monitor's tags, for tag subjects (stored as a JSON array). */
    async monitorTags(): Promise<{ id: number; tags: string[] }[]> {
      const rows = await db.selectFrom('monitors').select(['id', 'tags']).execute();
      return rows.map((r) => ({ id: Number(r.id), tags: parseTags(r.tags) }));
    },

    /** Outcome counts of these monitors' `level` buckets starting in [from, to). */
    async counts(
      level: RollupLevel,
      monitorIds: readonly number[],
      from: number,
      to: number,
    ): Promise<MonitorBucket[]> {
      const out: MonitorBucket[] = [];
      for (let i = 0; i < monitorIds.length; i += ID_CHUNK) {
        const rows = await db
          .selectFrom(tableOf(level))
          .select(['monitor_id', 'bucket', 'checks', 'degraded', 'down'])
          .where('monitor_id', 'in', monitorIds.slice(i, i + ID_CHUNK))
          .where('bucket', '>=', from)
          .where('bucket', '<=', to - levelMs[level])
          .execute();
        for (const r of rows) {
          out.push({
            monitorId: Number(r.monitor_id),
            bucket: Number(r.bucket),
            checks: Number(r.checks),
            degraded: Number(r.degraded),
            down: Number(r.down),
          });
        }
      }
      return out;
    },

    /**
     * Moves the burn-rate alert's state with a compare-and-set and, in the same transaction,
     * queues its event for the channels of the subject's monitors (the default channels when
     * they have none). Null when another evaluator moved it first: each alert is sent once.
     */
    async moveAlertState(
      id: number,
      from: BurnAlertState,
      to: BurnAlertState,
      now: number,
      alert: { monitorIds: readonly number[]; event: AlertEvent } | null,
    ): Promise<number | null> {
      return db.transaction().execute(async (trx) => {
        let q = trx
          .updateTable('slos')
          .set({ alert_state: to, alert_since: to === null ? null : now })
          .where('id', '=', id);
        q = from === null ? q.where('alert_state', 'is', null) : q.where('alert_state', '=', from);
        const r = await q.executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return null;
        if (!alert) return 0;
        let channels = await channelsOfMonitors(trx, alert.monitorIds);
        if (channels.length === 0) {
          const rows = await trx
            .selectFrom('notification_channels')
            .select('id')
            .where('is_default', '=', 1)
            .where('enabled', '=', 1)
            .execute();
          channels = rows.map((c) => Number(c.id));
        }
        const key = `slo:${id}:${alert.event.kind}:${to ?? 'none'}:${now}`;
        return insertFor(
          trx,
          channels,
          { event: alert.event, orderKey: `slo:${id}`, monitorId: null, key },
          now,
        );
      });
    },
  };
}

function parseTags(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export type SlosRepository = ReturnType<typeof slosRepository>;
