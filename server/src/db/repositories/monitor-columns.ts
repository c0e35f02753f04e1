import {
  defaultAlertRules,
  type AlertRules,
  type CheckDetails,
  type MonitorInput,
  type MonitorStatus,
} from '@pagewatch/contract';
import type { Selectable } from 'kysely';
import type { MonitorRecord, MonitorSettings, RecentEntry } from '../../domain/monitor.js';
import { splitInput } from '../../domain/monitor.js';
import { decodeOutcome, toMs } from '../codecs.js';
import type { MonitorsTable } from '../schema.js';

/** How a monitor row maps to the record the engine and the services use, and back. */
export const columns = [
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

export function toRecord(row: Row): MonitorRecord {
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

export const sealedColumns = (sealed: SealedWrite | null) => ({
  secret: sealed?.secret ?? null,
  header_secrets: sealed?.headerSecrets ?? null,
});

/** A push URL's token and its SHA-256 hex, as the service made them. */
export interface PushTokenWrite {
  token: string;
  hash: string;
}

export const pushColumns = (push: PushTokenWrite | null) => ({
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

export function definitionColumns(input: MonitorInput) {
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
