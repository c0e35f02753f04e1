import type { MonitorStatus, MonitorType, Phases } from '@pagewatch/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { HOUR_MS, hourBucket } from '../../domain/windows.js';
import { toMs } from '../codecs.js';
import type { DB } from '../schema.js';

const DAY_MS = 24 * HOUR_MS;

/** What /metrics shows of one monitor: its stored state and its last check's figures. */
export interface MonitorGaugeRow {
  id: number;
  name: string;
  type: MonitorType;
  paused: boolean;
  status: MonitorStatus;
  latencyMs: number | null;
  phases: Phases | null;
  httpStatus: number | null;
  /** The last check's peer certificate notAfter, epoch ms. */
  certExpiresAt: number | null;
}

/** Checks and good ones (up or degraded) per monitor over one window. */
export interface UptimeCounts {
  monitorId: number;
  checks: number;
  good: number;
}

export const uptimeWindows = ['24h', '7d', '30d'] as const;
export type UptimeWindow = (typeof uptimeWindows)[number];

type Num = number | string | null;
const n = (v: Num): number => Number(v ?? 0);
const us = (v: Num): number | null => toMs(v === null ? null : Number(v));

/** The reads behind the per-monitor series of /metrics: one row per monitor, rollup sums. */
export function monitorMetricsRepository(db: Kysely<DB>) {
  return {
    /** Every monitor with the figures of its last result (found by the (monitor_id, at) key). */
    async gauges(): Promise<MonitorGaugeRow[]> {
      const rows = await db
        .selectFrom('monitors as m')
        .leftJoin('check_results as r', (j) =>
          j.onRef('r.monitor_id', '=', 'm.id').onRef('r.at', '=', 'm.last_check_at'),
        )
        .select([
          'm.id',
          'm.name',
          'm.type',
          'm.paused',
          'm.status',
          'm.last_latency_us',
          'm.last_http_status',
          'r.id as result_id',
          'r.dns_us',
          'r.connect_us',
          'r.tls_us',
          'r.ttfb_us',
          'r.download_us',
          'r.cert_expires_at',
        ])
        .orderBy('m.id')
        .execute();
      const out: MonitorGaugeRow[] = [];
      for (const r of rows) {
        // Two results at the same millisecond would repeat the monitor; the first one wins.
        if (out.at(-1)?.id === r.id) continue;
        out.push({
          id: r.id,
          name: r.name,
          type: r.type as MonitorType,
          paused: r.paused === 1,
          status: r.status as MonitorStatus,
          latencyMs: us(r.last_latency_us),
          httpStatus: r.last_http_status,
          phases:
            r.result_id === null
              ? null
              : {
                  dns: us(r.dns_us),
                  connect: us(r.connect_us),
                  tls: us(r.tls_us),
                  ttfb: us(r.ttfb_us),
                  download: us(r.download_us),
                },
          certExpiresAt: r.cert_expires_at === null ? null : Number(r.cert_expires_at),
        });
      }
      return out;
    },

    /**
     * Checks per monitor over each window: the window's length plus the bucket in progress
     * (24–25 h of hourly rollups; 7–8 and 30–31 days of daily ones), two grouped reads.
     */
    async uptime(now: number): Promise<Record<UptimeWindow, UptimeCounts[]>> {
      const known = db.selectFrom('monitors').select('id');
      const hours = await db
        .selectFrom('rollup_hour')
        .select((eb) => [
          'monitor_id',
          eb.fn.sum<Num>('checks').as('checks'),
          eb.fn.sum<Num>(sql`up + degraded`).as('good'),
        ])
        .where('bucket', '>=', hourBucket(now) - DAY_MS)
        .where('monitor_id', 'in', known)
        .groupBy('monitor_id')
        .execute();
      const today = Math.floor(now / DAY_MS) * DAY_MS;
      const week = today - 7 * DAY_MS;
      const inWeek = (what: RawBuilder<unknown>) =>
        sql<Num>`sum(case when bucket >= ${week} then ${what} else 0 end)`;
      const days = await db
        .selectFrom('rollup_day')
        .select((eb) => [
          'monitor_id',
          inWeek(sql`checks`).as('week_checks'),
          inWeek(sql`up + degraded`).as('week_good'),
          eb.fn.sum<Num>('checks').as('checks'),
          eb.fn.sum<Num>(sql`up + degraded`).as('good'),
        ])
        .where('bucket', '>=', today - 30 * DAY_MS)
        .where('monitor_id', 'in', known)
        .groupBy('monitor_id')
        .execute();
      return {
        '24h': hours.map((r) => ({
          monitorId: r.monitor_id,
          checks: n(r.checks),
          good: n(r.good),
        })),
        '7d': days.map((r) => ({
          monitorId: r.monitor_id,
          checks: n(r.week_checks),
          good: n(r.week_good),
        })),
        '30d': days.map((r) => ({ monitorId: r.monitor_id, checks: n(r.checks), good: n(r.good) })),
      };
    },
  };
}

export type MonitorMetricsRepository = ReturnType<typeof monitorMetricsRepository>;
