import type { MonitorStatus } from '@pagewatch/contract';
import { sql, type Kysely } from 'kysely';
import { noPhases } from '../../domain/check-run.js';
import type { OutboxSignal } from '../../lib/outbox-signal.js';
import type { DB } from '../schema.js';
import { alertColumns, followAlerts } from './monitor-alerts.js';
import type { ResultWrite } from './results.js';

/** The sweep's UNKNOWN for one monitor's round that no location reported (ADR 73). */
export interface UnknownWrite {
  monitorId: number;
  at: number;
  /** The status the sweep read: the write is a compare-and-set on it. */
  from: MonitorStatus;
  /** The due time of the round it speaks for: a decision of that round, or later, wins. */
  roundDue: number;
  message: string;
}

/** An unknown monitor decided by its locations, with its locations' verdict times. */
export interface UnknownMonitor {
  id: number;
  interval: number;
  since: number | null;
  verdicts: { locationId: string; checkedAt: number | null }[];
}

/**
 * Coverage of monitors decided by their locations (issue 16 item 4, ADR 73): which may have
 * lost it, recording UNKNOWN for a round nobody reported, and the unknown ones for the notice.
 */
export function coverageRepository(db: Kysely<DB>, outbox?: OutboxSignal) {
  return {
    /**
     * The sweep's one query a pass: monitors with chosen locations, not paused nor unknown,
     * whose last decided round is over an interval old and which have fewer verdicts newer than
     * an interval and 10 s (the least freshness of ADR 58) than their quorum needs. A superset
     * of those that lost coverage; the domain rule decides each.
     */
    async candidates(now: number): Promise<number[]> {
      const rows = await sql<{ id: number }>`
        select m.id from monitors m
        where m.paused = 0 and m.status <> 'unknown' and m.last_round_due is not null
          and m.last_round_due <= cast(${now} as bigint) - m.interval_s * 1000
          and exists (select 1 from monitor_locations ml where ml.monitor_id = m.id)
          and (
            select count(*) from monitor_locations ml
            join monitor_location_verdicts v
              on v.monitor_id = ml.monitor_id and v.location_id = ml.location_id
            where ml.monitor_id = m.id
              and v.checked_at >= cast(${now} as bigint) - m.interval_s * 1000 - 10000
          ) < coalesce(m.location_quorum, 1)`.execute(db);
      return rows.rows.map((r) => Number(r.id));
    },

    /**
     * Records UNKNOWN for a round no decision covered: the status, a flip row and what alerting
     * makes of it, in one transaction; no result row and no rollup (the bars show a gap). The
     * round columns stay: a location's decision of that round, before or after, still counts
     * as the round's (and the scheduler's resume point is untouched). False: the monitor moved
     * on meanwhile (another status, or a decision of this round).
     */
    async markUnknown(w: UnknownWrite): Promise<boolean> {
      const queued = { n: 0 };
      const done = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('monitors')
          .set({
            status: 'unknown',
            failures: 0,
            status_changed_at: w.at,
          })
          .where('id', '=', w.monitorId)
          .where('status', '=', w.from)
          .where('paused', '=', 0)
          .where((eb) =>
            eb.or([eb('last_round_due', 'is', null), eb('last_round_due', '<', w.roundDue)]),
          )
          .returning([...alertColumns])
          .executeTakeFirst();
        if (!row) return false;
        const flip = { from: w.from, to: 'unknown' as const };
        await trx
          .insertInto('status_flips')
          .values({
            monitor_id: w.monitorId,
            at: w.at,
            from_status: flip.from,
            to_status: flip.to,
            error_code: null,
            message: w.message,
          })
          .execute();
        // Alerting reads the status of the write; no check ran, so the run carries words only.
        const write: ResultWrite = {
          monitorId: w.monitorId,
          at: w.at,
          run: {
            outcome: 'up',
            latencyMs: null,
            phases: noPhases,
            httpStatus: null,
            errorCode: null,
            errorMessage: w.message,
            responseSize: null,
            certExpiresAt: null,
          },
          status: 'unknown',
          failures: 0,
          recent: [],
          flip,
        };
        const states = new Map<number, string | null>();
        queued.n += await followAlerts(trx, write, row, states);
        if (states.has(w.monitorId)) {
          await trx
            .updateTable('monitors')
            .set({ alert_state: states.get(w.monitorId) ?? null })
            .where('id', '=', w.monitorId)
            .execute();
        }
        return true;
      });
      if (queued.n > 0) outbox?.notify();
      return done;
    },

    /** The unknown monitors with chosen locations, not paused, and their verdicts' times. */
    async unknownMonitors(): Promise<UnknownMonitor[]> {
      const rows = await db
        .selectFrom('monitors as m')
        .innerJoin('monitor_locations as ml', 'ml.monitor_id', 'm.id')
        .leftJoin('monitor_location_verdicts as v', (j) =>
          j
            .onRef('v.monitor_id', '=', 'ml.monitor_id')
            .onRef('v.location_id', '=', 'ml.location_id'),
        )
        .select(['m.id', 'm.interval_s', 'm.status_changed_at', 'ml.location_id', 'v.checked_at'])
        .where('m.status', '=', 'unknown')
        .where('m.paused', '=', 0)
        .orderBy('m.id')
        .execute();
      const out = new Map<number, UnknownMonitor>();
      for (const r of rows) {
        const id = Number(r.id);
        let m = out.get(id);
        if (!m) {
          m = {
            id,
            interval: r.interval_s,
            since: r.status_changed_at === null ? null : Number(r.status_changed_at),
            verdicts: [],
          };
          out.set(id, m);
        }
        m.verdicts.push({
          locationId: r.location_id,
          checkedAt: r.checked_at === null ? null : Number(r.checked_at),
        });
      }
      return [...out.values()];
    },
  };
}

export type CoverageRepository = ReturnType<typeof coverageRepository>;
