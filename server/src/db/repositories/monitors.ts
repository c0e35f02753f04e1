import {
  defaultAlertRules,
  type AlertRules,
  type CheckDetails,
  type MonitorInput,
  type MonitorStatus,
} from '@pagewatch/contract';
import type { Kysely, Selectable } from 'kysely';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { MonitorRecord, MonitorSettings, RecentEntry } from '../../domain/monitor.js';
import { splitInput } from '../../domain/monitor.js';
import { HOUR_MS, hourBucket } from '../../domain/windows.js';
import { decodeOutcome, toMs } from '../codecs.js';
import type { DB, MonitorsTable } from '../schema.js';
import { setMonitorChannels } from './notification-channels.js';

/** Rows deleted per statement when a monitor's history goes. */
const DELETE_BATCH = 5000;

const columns = [
  'id',
  'type',
  'name',
  'config',
  'interval_s',
  'timeout_s',
  'retries',
  'retry_interval_s',
  'degraded_threshold_ms',
  'tags',
  'description',
  'paused',
  'status',
  'failures',
  'status_changed_at',
  'last_check_at',
  'last_outcome',
  'last_latency_us',
  'last_http_status',
  'last_error_code',
  'last_error_message',
  'recent',
  'secret',
  'header_secrets',
  'last_details',
  'created_at',
  'updated_at',
  'push_token',
  'last_ping_at',
  'alert_rules',
  'last_round',
  'last_round_due',
  'last_attempt',
] as const;

type Row = Pick<Selectable<MonitorsTable>, (typeof columns)[number]>;

function toRecord(row: Row): MonitorRecord {
  const recent = (JSON.parse(row.recent) as [number, number | null][]).map(
    ([o, us]): RecentEntry => [decodeOutcome(o), toMs(us)],
  );
  return {
    id: row.id,
    type: row.type as MonitorRecord['type'],
    name: row.name,
    settings: JSON.parse(row.config) as MonitorSettings,
    interval: row.interval_s,
    timeout: row.timeout_s,
    retries: row.retries,
    retryInterval: row.retry_interval_s,
    degradedThresholdMs: row.degraded_threshold_ms,
    tags: JSON.parse(row.tags) as string[],
    description: row.description,
    paused: row.paused === 1,
    state: { status: row.status as MonitorStatus, failures: row.failures },
    statusChangedAt: row.status_changed_at,
    lastCheck:
      row.last_check_at === null || row.last_outcome === null
        ? null
        : {
            at: row.last_check_at,
            outcome: decodeOutcome(row.last_outcome),
            latencyMs: toMs(row.last_latency_us),
            httpStatus: row.last_http_status,
            errorCode: row.last_error_code as NonNullable<MonitorRecord['lastCheck']>['errorCode'],
            errorMessage: row.last_error_message,
          },
    recent,
    secret: row.secret,
    headerSecrets: row.header_secrets,
    lastDetails: row.last_details === null ? null : (JSON.parse(row.last_details) as CheckDetails),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    alerts: row.alert_rules === null ? null : (JSON.parse(row.alert_rules) as AlertRules),
    ...(row.push_token === null ? {} : { pushToken: row.push_token, lastPingAt: row.last_ping_at }),
    ...(row.last_round === null || row.last_round_due === null
      ? {}
      : {
          lastRound: {
            round: Number(row.last_round),
            roundDue: Number(row.last_round_due),
            attempt: row.last_attempt ?? 0,
          },
        }),
  };
}

/** What a monitor keeps sealed apart from its settings: null where there is none. */
export interface SealedWrite {
  /** The request credential (basic password or bearer token). */
  secret: string | null;
  /** The secret request headers' values, a JSON array in settings order. */
  headerSecrets?: string | null;
}

const sealedColumns = (sealed: SealedWrite | null) => ({
  secret: sealed?.secret ?? null,
  header_secrets: sealed?.headerSecrets ?? null,
});

/** A push URL's token and its SHA-256 hex, as the service made them. */
export interface PushTokenWrite {
  token: string;
  hash: string;
}

const pushColumns = (push: PushTokenWrite | null) => ({
  push_token: push?.token ?? null,
  push_token_hash: push?.hash ?? null,
  ...(push ? {} : { last_ping_at: null, push_started_at: null }),
});

/** What a ping needs to know about the monitor its token names. */
export interface PushTarget {
  id: number;
  type: string;
  paused: boolean;
  degradedThresholdMs: number | null;
  token: string;
  startedAt: number | null;
}

function definitionColumns(input: MonitorInput) {
  const { common, settings } = splitInput(input);
  return {
    type: common.type,
    name: common.name,
    config: JSON.stringify(settings),
    interval_s: common.interval,
    timeout_s: common.timeout,
    retries: common.retries,
    retry_interval_s: common.retryInterval,
    degraded_threshold_ms: common.degradedThresholdMs,
    tags: JSON.stringify(common.tags),
    description: common.description,
    paused: common.paused ? 1 : 0,
    alert_rules: alertRulesColumn(input.alerts),
  };
}

/** Null stands for the defaults, so a change of defaults reaches monitors that kept them. */
function alertRulesColumn(rules: AlertRules | undefined): string | null {
  if (!rules || JSON.stringify(rules) === JSON.stringify(defaultAlertRules)) return null;
  return JSON.stringify(rules);
}

export interface UptimeRow {
  monitorId: number;
  checks: number;
  up: number;
  degraded: number;
}

/** Monitor definitions and their persisted state. */
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

    async findById(id: number): Promise<MonitorRecord | null> {
      const row = await db
        .selectFrom('monitors')
        .select(columns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
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
      return rows.map(toRecord);
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
