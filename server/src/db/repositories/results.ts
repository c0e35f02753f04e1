import type { CheckResult, Incident, MonitorStatus } from '@pagewatch/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CheckRun } from '../../domain/check-run.js';
import { autoIncidentAction, type FailureCause } from '../../domain/incidents.js';
import type { RecentEntry } from '../../domain/monitor.js';
import type { RoundKey } from '../../domain/schedule.js';
import { foldChecks, rollupLevels, type RolledCheck } from '../../domain/rollup.js';
import { decodeOutcome, encodeOutcome, iso, isoOrNull, toMs, toUs } from '../codecs.js';
import type { Engine } from '../database.js';
import type { CheckResultsTable, DB } from '../schema.js';
import { openAutoIncident, resolveAutoIncident } from './incidents.js';
import { writeBrowserRun } from './browser-runs.js';
import { applyRollupDeltas } from './rollups.js';
import { alertColumns, followAlerts } from './monitor-alerts.js';
import type { OutboxSignal } from '../../lib/outbox-signal.js';

/** One check to persist with the monitor state it led to. */
export interface ResultWrite {
  monitorId: number;
  at: number;
  run: CheckRun;
  status: MonitorStatus;
  failures: number;
  recent: RecentEntry[];
  flip: { from: MonitorStatus; to: MonitorStatus } | null;
  /** The first failed check of the current streak (null or absent while not failing). */
  firstFailure?: FailureCause | null;
  /**
   * The check started inside an active maintenance window: recorded, but a down check opens
   * no incident and raises nothing.
   */
  maintenance?: boolean;
  /**
   * The round and attempt this result is (domain/schedule.ts). A write whose key is not after
   * the monitor's last one is a duplicate (another process recorded that round) and changes
   * nothing. Absent: written unconditionally (tests and tools that write history).
   */
  round?: RoundKey;
}

const resultColumns = [
  'id',
  'monitor_id',
  'at',
  'outcome',
  'latency_us',
  'dns_us',
  'connect_us',
  'tls_us',
  'ttfb_us',
  'download_us',
  'http_status',
  'error_code',
  'error_message',
  'response_size',
  'cert_expires_at',
] as const;

type ResultRow = Pick<Selectable<CheckResultsTable>, (typeof resultColumns)[number]>;

function toResult(r: ResultRow): CheckResult {
  return {
    id: Number(r.id),
    monitorId: r.monitor_id,
    at: iso(r.at),
    outcome: decodeOutcome(r.outcome),
    latencyMs: toMs(r.latency_us),
    phases: {
      dns: toMs(r.dns_us),
      connect: toMs(r.connect_us),
      tls: toMs(r.tls_us),
      ttfb: toMs(r.ttfb_us),
      download: toMs(r.download_us),
    },
    httpStatus: r.http_status,
    errorCode: r.error_code as CheckResult['errorCode'],
    errorMessage: r.error_message,
    responseSize: r.response_size,
    certExpiresAt: isoOrNull(r.cert_expires_at),
  };
}

/** The batch as the rollups see it. */
function rolledChecks(writes: readonly ResultWrite[]): RolledCheck[] {
  return writes.map(({ monitorId, at, run }) => ({
    monitorId,
    at,
    outcome: run.outcome,
    latencyUs: toUs(run.latencyMs),
    phasesUs: {
      dns: toUs(run.phases.dns),
      connect: toUs(run.phases.connect),
      tls: toUs(run.phases.tls),
      ttfb: toUs(run.phases.ttfb),
      download: toUs(run.phases.download),
    },
  }));
}

export interface InsertedResult {
  write: ResultWrite;
  result: CheckResult;
  /** The automatic incident this write opened or resolved. */
  incident?: { change: 'created' | 'resolved'; incident: Incident };
}

export function resultsRepository(db: Kysely<DB>, engine: Engine, outbox?: OutboxSignal) {
  /** Opens or resolves the monitor's automatic incident in the write's transaction. */
  async function followIncident(
    trx: Transaction<DB>,
    w: ResultWrite,
  ): Promise<InsertedResult['incident']> {
    const action = autoIncidentAction({
      status: w.status,
      flip: w.flip,
      maintenance: w.maintenance ?? false,
    });
    if (action === 'open') {
      const cause = w.firstFailure ?? {
        at: w.at,
        code: w.run.errorCode,
        message: w.run.errorMessage,
      };
      const incident = await openAutoIncident(trx, w.monitorId, cause, w.at);
      return incident ? { change: 'created', incident } : undefined;
    }
    if (action === 'resolve') {
      const incident = await resolveAutoIncident(trx, w.monitorId, w.at);
      return incident ? { change: 'resolved', incident } : undefined;
    }
    return undefined;
  }

  /**
   * Takes the monitor's new state if this write is newer than the last one recorded: the
   * conditional update holds the row lock until commit, so of two processes writing the same
   * (monitor, round, attempt) exactly one gets the row back. Undefined: a duplicate.
   */
  async function claimState(trx: Transaction<DB>, w: ResultWrite) {
    const { run, round: key } = w;
    let q = trx
      .updateTable('monitors')
      .set({
        status: w.status,
        failures: w.failures,
        last_check_at: w.at,
        last_outcome: encodeOutcome(run.outcome),
        last_latency_us: toUs(run.latencyMs),
        last_http_status: run.httpStatus,
        last_error_code: run.errorCode,
        last_error_message: run.errorMessage,
        recent: JSON.stringify(w.recent.map(([o, ms]) => [encodeOutcome(o), toUs(ms)])),
        // Only the last check's details are kept: result rows stay small.
        last_details: run.details === undefined ? null : JSON.stringify(run.details),
        ...(w.flip ? { status_changed_at: w.at } : {}),
        ...(key
          ? { last_round: key.round, last_round_due: key.roundDue, last_attempt: key.attempt }
          : {}),
      })
      .where('id', '=', w.monitorId);
    if (key) {
      q = q.where((eb) =>
        eb.or([
          eb('last_round_due', 'is', null),
          eb('last_round_due', '<', key.roundDue),
          eb.and([eb('last_round_due', '=', key.roundDue), eb('last_attempt', '<', key.attempt)]),
        ]),
      );
    }
    const monitor = await q.returning(alertColumns).executeTakeFirst();
    if (monitor || !key) return monitor;
    const exists = await trx
      .selectFrom('monitors')
      .select('id')
      .where('id', '=', w.monitorId)
      .executeTakeFirst();
    // A deleted monitor's late result fails like before; the batch is then written one by one.
    if (!exists) throw new Error(`monitor ${w.monitorId} does not exist`);
    return undefined;
  }

  /**
   * Writes the result and the monitor's state; `queued` counts the alerts it put in the outbox.
   * Null: a duplicate of a result already recorded, dropped with no result row, flip or alert.
   */
  async function writeOne(trx: Transaction<DB>, w: ResultWrite, queued: { n: number }) {
    const { run } = w;
    const monitor = await claimState(trx, w);
    if (!monitor && w.round) return null;
    const row = await trx
      .insertInto('check_results')
      .values({
        monitor_id: w.monitorId,
        at: w.at,
        outcome: encodeOutcome(run.outcome),
        latency_us: toUs(run.latencyMs),
        dns_us: toUs(run.phases.dns),
        connect_us: toUs(run.phases.connect),
        tls_us: toUs(run.phases.tls),
        ttfb_us: toUs(run.phases.ttfb),
        download_us: toUs(run.phases.download),
        http_status: run.httpStatus,
        error_code: run.errorCode,
        error_message: run.errorMessage,
        response_size: run.responseSize,
        cert_expires_at: run.certExpiresAt,
        round: w.round?.round ?? null,
      })
      .returning(resultColumns)
      .executeTakeFirstOrThrow();
    await writeBrowserRun(trx, Number(row.id), w.monitorId, w.at, run);
    if (monitor) queued.n += await followAlerts(trx, w, monitor);
    if (w.flip) {
      await trx
        .insertInto('status_flips')
        .values({
          monitor_id: w.monitorId,
          at: w.at,
          from_status: w.flip.from,
          to_status: w.flip.to,
          error_code: run.errorCode,
          message: run.errorMessage,
        })
        .execute();
    }
    return toResult(row);
  }

  return {
    /**
     * Stores results, the monitors' new state, flips, automatic incidents, alerts and rollups in one
     * transaction: a status change is never recorded without the result that caused it (nor an
     * outage without its incident), and the rollups always equal the results they were folded from.
     * Returns the writes taken; a duplicate of a recorded round is left out (and out of the rollups).
     */
    async writeBatch(writes: readonly ResultWrite[]): Promise<InsertedResult[]> {
      const queued = { n: 0 };
      // Monitors are locked in id order (a stable sort keeps each one's own order): two
      // processes writing the same monitors during a takeover wait for each other, never
      // deadlock. The monitor's row lock also serialises the rollup sketch merges below.
      const ordered = [...writes].sort((a, b) => a.monitorId - b.monitorId);
      const written = await db.transaction().execute(async (trx) => {
        const out: InsertedResult[] = [];
        for (const w of ordered) {
          const result = await writeOne(trx, w, queued);
          if (!result) continue;
          const incident = await followIncident(trx, w);
          out.push(incident ? { write: w, result, incident } : { write: w, result });
        }
        const checks = rolledChecks(out.map((o) => o.write));
        for (const level of rollupLevels) {
          await applyRollupDeltas(trx, engine, level, foldChecks(level, checks));
        }
        return out;
      });
      // After the commit: the notifier must be able to read what it is woken for.
      if (queued.n > 0) outbox?.notify();
      return written;
    },

    async page(monitorId: number, limit: number, before?: number) {
      let q = db
        .selectFrom('check_results')
        .select(resultColumns)
        .where('monitor_id', '=', monitorId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1);
      if (before !== undefined) q = q.where('id', '<', before);
      const rows = await q.execute();
      const items = rows.slice(0, limit).map(toResult);
      return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
    },
  };
}

export type ResultsRepository = ReturnType<typeof resultsRepository>;
