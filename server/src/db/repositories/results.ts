import type { CheckResult, Incident, MonitorStatus } from '@pagewatch/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CheckRun } from '../../domain/check-run.js';
import { autoIncidentAction, type FailureCause } from '../../domain/incidents.js';
import type { RecentEntry } from '../../domain/monitor.js';
import type { RoundKey } from '../../domain/schedule.js';
import { foldChecks, rollupLevels, type RolledCheck } from '../../domain/rollup.js';
import { decodeOutcome, encodeOutcome, iso, isoOrNull, toMs, toUs } from '../codecs.js';
import type { Engine } from '../database.js';
import type { CheckResultsTable, DB, MonitorsTable } from '../schema.js';
import { openAutoIncident, resolveAutoIncident } from './incidents.js';
import { writeBrowserRun } from './browser-runs.js';
import { applyRollupDeltas } from './rollups.js';
import { alertColumns, followAlerts, type AlertRow } from './monitor-alerts.js';
import { hotStatements, pieces, tuples, type Placeholders } from '../hot-statements.js';
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

/** What a result row records of its check, in the order `insertResults` binds them. */
const checkColumns = [
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
] as const satisfies readonly (keyof CheckResultsTable)[];

const resultColumns = ['id', ...checkColumns] as const;

/**
 * The monitor columns a result sets, in the order `claimParams` gives them, with their types
 * (PostgreSQL needs the claim's values list typed).
 */
const claimedColumns = [
  ['status', 'text'],
  ['failures', 'integer'],
  ['last_check_at', 'bigint'],
  ['last_outcome', 'integer'],
  ['last_latency_us', 'integer'],
  ['last_http_status', 'integer'],
  ['last_error_code', 'text'],
  ['last_error_message', 'text'],
  ['recent', 'text'],
  ['last_details', 'text'],
] as const satisfies readonly (readonly [keyof MonitorsTable, string])[];

/** The columns a result row is inserted with: its check's, then its round. */
const insertedColumns = [...checkColumns, 'round'] as const;

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

/**
 * Splits writes (sorted by monitor) into runs in which each monitor appears once, keeping each
 * monitor's own order: its first write in the first run, its second in the second (a retry
 * or a check-now in the same batch).
 */
function generations(writes: readonly ResultWrite[]): ResultWrite[][] {
  const out: ResultWrite[][] = [];
  const seen = new Map<number, number>();
  for (const w of writes) {
    const g = seen.get(w.monitorId) ?? 0;
    seen.set(w.monitorId, g + 1);
    (out[g] ??= []).push(w);
  }
  return out;
}

/** The columns of the claim's values list, in the order `claimParams` gives them. */
const claimValues = [
  ['id', 'bigint'],
  ...claimedColumns,
  ['flip_at', 'bigint'],
  ['round', 'bigint'],
  ['round_due', 'bigint'],
  ['attempt', 'integer'],
] as const;

function claimParams(w: ResultWrite): unknown[] {
  const { run, round: key } = w;
  return [
    w.monitorId,
    w.status,
    w.failures,
    w.at,
    encodeOutcome(run.outcome),
    toUs(run.latencyMs),
    run.httpStatus,
    run.errorCode,
    run.errorMessage,
    JSON.stringify(w.recent.map(([o, ms]) => [encodeOutcome(o), toUs(ms)])),
    // Only the last check's details are kept: result rows stay small.
    run.details === undefined ? null : JSON.stringify(run.details),
    w.flip ? w.at : null,
    key?.round ?? null,
    key?.roundDue ?? null,
    key?.attempt ?? null,
  ];
}

/**
 * One update for `rows` monitors. A write with a round takes the row only if it is after the
 * last one recorded; one without (tests and tools that write history) takes it always and
 * leaves the round columns be. PostgreSQL needs the values list typed; SQLite takes them as
 * they come.
 */
function claimSql(engine: Engine, rows: number, p: Placeholders): string {
  const cast = (type: string) => (engine === 'postgres' ? `::${type}` : '');
  const values: string[] = [];
  for (let r = 0; r < rows; r += 1) {
    values.push(`(${claimValues.map(([, type]) => `${p()}${cast(type)}`).join(', ')})`);
  }
  const set = [
    ...claimedColumns.map(([c]) => `${c} = v.${c}`),
    'status_changed_at = coalesce(v.flip_at, monitors.status_changed_at)',
    'last_round = coalesce(v.round, monitors.last_round)',
    'last_round_due = coalesce(v.round_due, monitors.last_round_due)',
    'last_attempt = coalesce(v.attempt, monitors.last_attempt)',
  ];
  const newer = [
    'v.round_due is null',
    'monitors.last_round_due is null',
    'monitors.last_round_due < v.round_due',
    '(monitors.last_round_due = v.round_due and monitors.last_attempt < v.attempt)',
  ];
  return (
    `with v (${claimValues.map(([c]) => c).join(', ')}) as (values ${values.join(', ')}) ` +
    `update monitors set ${set.join(', ')} from v ` +
    `where monitors.id = v.id and (${newer.join(' or ')}) ` +
    `returning monitors.id, ${alertColumns.map((c) => `monitors.${c}`).join(', ')}`
  );
}

export interface InsertedResult {
  write: ResultWrite;
  result: CheckResult;
  /** The automatic incident this write opened or resolved. */
  incident?: { change: 'created' | 'resolved'; incident: Incident };
}

export function resultsRepository(db: Kysely<DB>, engine: Engine, outbox?: OutboxSignal) {
  const hot = hotStatements(engine);

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
   * Takes each monitor's new state where the write is newer than the last one recorded, for
   * writes of distinct monitors in one statement: the conditional update holds the row locks
   * until commit, so of two processes writing the same (monitor, round, attempt) exactly one
   * gets the row back. Returns the rows of the writes taken; a write left out is a duplicate.
   */
  async function claimStates(trx: Transaction<DB>, writes: readonly ResultWrite[]) {
    const claimed = new Map<number, AlertRow>();
    for (const part of pieces(writes)) {
      if (engine === 'postgres') {
        // One multi-row update locks in whatever order its plan visits the rows; lock them in
        // id order first, so two processes writing the same monitors (a takeover) wait for
        // each other and never deadlock.
        const lock = hot.sql(
          `lock-monitors:${part.length}`,
          (p) =>
            `select id from monitors where id in (${part.map(() => p()).join(', ')}) order by id for update`,
        );
        await hot.run(
          trx,
          lock,
          part.map((w) => w.monitorId),
        );
      }
      const text = hot.sql(`claim:${part.length}`, (p) => claimSql(engine, part.length, p));
      const params: unknown[] = [];
      for (const w of part) params.push(...claimParams(w));
      const { rows } = await hot.run<AlertRow & { id: number }>(trx, text, params);
      for (const row of rows) claimed.set(Number(row.id), row);
    }
    const missing = writes.filter((w) => !claimed.has(w.monitorId));
    if (missing.length > 0) {
      const present = new Set(
        (
          await trx
            .selectFrom('monitors')
            .select('id')
            .where(
              'id',
              'in',
              missing.map((w) => w.monitorId),
            )
            .execute()
        ).map((r) => Number(r.id)),
      );
      // A deleted monitor's late result fails like before; the batch is then written one by one.
      const gone = missing.find((w) => !present.has(w.monitorId));
      if (gone) throw new Error(`monitor ${gone.monitorId} does not exist`);
    }
    return claimed;
  }

  /** The result rows of writes of distinct monitors, by monitor id. */
  async function insertResults(trx: Transaction<DB>, writes: readonly ResultWrite[]) {
    const inserted = new Map<number, ResultRow>();
    for (const part of pieces(writes)) {
      const text = hot.sql(
        `insert-results:${part.length}`,
        (p) =>
          `insert into check_results (${insertedColumns.join(', ')}) values ${tuples(p, part.length, insertedColumns.length)} returning ${resultColumns.join(', ')}`,
      );
      const params: unknown[] = [];
      for (const w of part) {
        const { run } = w;
        params.push(
          w.monitorId,
          w.at,
          encodeOutcome(run.outcome),
          toUs(run.latencyMs),
          toUs(run.phases.dns),
          toUs(run.phases.connect),
          toUs(run.phases.tls),
          toUs(run.phases.ttfb),
          toUs(run.phases.download),
          run.httpStatus,
          run.errorCode,
          run.errorMessage,
          run.responseSize,
          run.certExpiresAt,
          w.round?.round ?? null,
        );
      }
      for (const row of (await hot.run<ResultRow>(trx, text, params)).rows) {
        inserted.set(row.monitor_id, row);
      }
    }
    return inserted;
  }

  /**
   * Writes the results of distinct monitors and their state; `queued` counts the alerts put in
   * the outbox. A duplicate of a result already recorded is left out: no result row, flip or
   * alert.
   */
  async function writeDistinct(
    trx: Transaction<DB>,
    writes: readonly ResultWrite[],
    queued: { n: number },
  ): Promise<InsertedResult[]> {
    const claimed = await claimStates(trx, writes);
    const taken = writes.filter((w) => claimed.has(w.monitorId));
    const rows = await insertResults(trx, taken);
    const out: InsertedResult[] = [];
    for (const w of taken) {
      const row = rows.get(w.monitorId);
      if (!row) throw new Error(`no result row came back for monitor ${w.monitorId}`);
      await writeBrowserRun(trx, Number(row.id), w.monitorId, w.at, w.run);
      queued.n += await followAlerts(trx, w, claimed.get(w.monitorId)!);
      if (w.flip) {
        await trx
          .insertInto('status_flips')
          .values({
            monitor_id: w.monitorId,
            at: w.at,
            from_status: w.flip.from,
            to_status: w.flip.to,
            error_code: w.run.errorCode,
            message: w.run.errorMessage,
          })
          .execute();
      }
      const result = toResult(row);
      const incident = await followIncident(trx, w);
      out.push(incident ? { write: w, result, incident } : { write: w, result });
    }
    return out;
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
        for (const distinct of generations(ordered)) {
          out.push(...(await writeDistinct(trx, distinct, queued)));
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
