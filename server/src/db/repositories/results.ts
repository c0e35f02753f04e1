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
import {
  columnsOf,
  hotStatements,
  pieces,
  tuples,
  unnestOf,
  type Placeholders,
} from '../hot-statements.js';
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
  /**
   * The result row is stored already (a location's result with its round, ADR 58): only the
   * monitor's combined state, flip, alerts and incident follow; no row, no rollup.
   */
  recorded?: CheckResult;
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
/** The columns a result row is inserted with, in the order `insertParams` gives them, typed for PostgreSQL's arrays. */
const insertedColumns = [
  ['monitor_id', 'integer'],
  ['at', 'bigint'],
  ['outcome', 'smallint'],
  ['latency_us', 'integer'],
  ['dns_us', 'integer'],
  ['connect_us', 'integer'],
  ['tls_us', 'integer'],
  ['ttfb_us', 'integer'],
  ['download_us', 'integer'],
  ['http_status', 'smallint'],
  ['error_code', 'text'],
  ['error_message', 'text'],
  ['response_size', 'integer'],
  ['cert_expires_at', 'bigint'],
  ['round', 'bigint'],
] as const satisfies readonly (readonly [(typeof checkColumns)[number] | 'round', string])[];

function insertParams(w: ResultWrite): unknown[] {
  const { run } = w;
  return [
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
  ];
}

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

const incidentAction = (w: ResultWrite) =>
  autoIncidentAction({ status: w.status, flip: w.flip, maintenance: w.maintenance ?? false });

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
 * One update for the monitors of `source` (a values list or PostgreSQL's unnest, columns as
 * in `claimValues`). A write with a round takes the row only if it is after the last one
 * recorded; one without (tests and tools that write history) takes it always and leaves the
 * round columns be.
 */
function claimSql(source: string): string {
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
    `with v (${claimValues.map(([c]) => c).join(', ')}) as (${source}) ` +
    `update monitors set ${set.join(', ')} from v ` +
    `where monitors.id = v.id and (${newer.join(' or ')}) ` +
    `returning monitors.id, ${alertColumns.map((c) => `monitors.${c}`).join(', ')}`
  );
}

/** SQLite's values list of `rows` claims. */
function valuesOf(p: Placeholders, rows: number): string {
  return `values ${tuples(p, rows, claimValues.length)}`;
}

// PostgreSQL's statements take any number of rows as one array a column (ADR 26).
const pgStoreAlertStates =
  'update monitors set alert_state = v.state from unnest($1::bigint[], $2::text[]) as v (id, state) where monitors.id = v.id';
const pgLockMonitors =
  'select id, status from monitors where id = any($1::bigint[]) order by id for update';

/**
 * The write with its flip checked against the status the database held before it: a process
 * whose copy of the monitor is stale (it loaded the monitor before another process, checking
 * the same rounds during a takeover, recorded the change) would otherwise record the same flip
 * again, with its alert and incident. No change in the database, no flip; a flip from another
 * status than the process thought names the real one.
 */
function againstStored(w: ResultWrite, before: MonitorStatus | undefined): ResultWrite {
  if (!w.flip || before === undefined || before === w.flip.from) return w;
  if (before === w.status) return { ...w, flip: null };
  return { ...w, flip: { from: before, to: w.flip.to } };
}
const pgClaim = claimSql(`select * from ${unnestOf(claimValues.map(([, t]) => t))}`);
const pgInsertResults =
  `insert into check_results (${insertedColumns.map(([c]) => c).join(', ')}) ` +
  `select * from ${unnestOf(insertedColumns.map(([, t]) => t))} returning ${resultColumns.join(', ')}`;

/**
 * Batches in flight at once on PostgreSQL. A batch is ~10 round trips, and between them its
 * connection waits on the network and on the event loop of a busy process: with one at a time
 * the primary's writer fell behind 1,667 results a second with its core two-thirds idle.
 */
const PG_PARALLEL_BATCHES = 3;

export interface InsertedResult {
  write: ResultWrite;
  result: CheckResult;
  /** The automatic incident this write opened or resolved. */
  incident?: { change: 'created' | 'resolved'; incident: Incident };
}

export function resultsRepository(db: Kysely<DB>, engine: Engine, outbox?: OutboxSignal) {
  const hot = hotStatements(engine);

  /**
   * Opens or resolves the monitor's automatic incident in the write's transaction; `open` holds
   * the monitors of the batch that have an automatic incident open (looked up once a batch).
   */
  async function followIncident(
    trx: Transaction<DB>,
    w: ResultWrite,
    open: ReadonlySet<number>,
  ): Promise<InsertedResult['incident']> {
    const action = incidentAction(w);
    if (action === 'open') {
      const cause = w.firstFailure ?? {
        at: w.at,
        code: w.run.errorCode,
        message: w.run.errorMessage,
      };
      const incident = await openAutoIncident(trx, w.monitorId, cause, w.at);
      return incident ? { change: 'created', incident } : undefined;
    }
    if (action === 'resolve' && open.has(w.monitorId)) {
      const incident = await resolveAutoIncident(trx, w.monitorId, w.at);
      return incident ? { change: 'resolved', incident } : undefined;
    }
    return undefined;
  }

  /**
   * The monitors among `writes` that would resolve an automatic incident and have one open:
   * one query for the batch instead of one a recovered monitor (at start every monitor's first
   * result flips it from pending to up).
   */
  async function openIncidentsOf(trx: Transaction<DB>, writes: readonly ResultWrite[]) {
    const ids = writes.filter((w) => incidentAction(w) === 'resolve').map((w) => w.monitorId);
    if (ids.length === 0) return new Set<number>();
    const rows = await trx
      .selectFrom('incidents')
      .select('monitor_id')
      .where('monitor_id', 'in', ids)
      .where('automatic', '=', 1)
      .where('resolved_at', 'is', null)
      .execute();
    return new Set(rows.map((r) => Number(r.monitor_id)));
  }

  /** The alert states that changed in a batch, in one statement on PostgreSQL. */
  async function storeAlertStates(
    trx: Transaction<DB>,
    states: ReadonlyMap<number, string | null>,
  ) {
    if (states.size === 0) return;
    if (engine === 'postgres') {
      await hot.run(trx, pgStoreAlertStates, [[...states.keys()], [...states.values()]]);
      return;
    }
    const text = hot.sql(
      'store-alert-state',
      (p) => `update monitors set alert_state = ${p()} where id = ${p()}`,
    );
    for (const [id, state] of states) await hot.run(trx, text, [state, id]);
  }

  /** The batch's status changes, in one insert. */
  async function insertFlips(trx: Transaction<DB>, flipped: readonly ResultWrite[]) {
    if (flipped.length === 0) return;
    await trx
      .insertInto('status_flips')
      .values(
        flipped.map((w) => ({
          monitor_id: w.monitorId,
          at: w.at,
          from_status: w.flip!.from,
          to_status: w.flip!.to,
          error_code: w.run.errorCode,
          message: w.run.errorMessage,
        })),
      )
      .execute();
  }

  /**
   * Takes each monitor's new state where the write is newer than the last one recorded, for
   * writes of distinct monitors in one statement: the conditional update holds the row locks
   * until commit, so of two processes writing the same (monitor, round, attempt) exactly one
   * gets the row back. Returns the rows of the writes taken; a write left out is a duplicate.
   */
  async function claimStates(trx: Transaction<DB>, given: readonly ResultWrite[]) {
    const claimed = new Map<number, AlertRow>();
    // Each write's flip checked against the status stored before it, read under the write
    // lock (againstStored).
    const writes: ResultWrite[] = [];
    if (engine === 'postgres') {
      // One multi-row update locks in whatever order its plan visits the rows; lock them in
      // id order first, so two processes writing the same monitors (a takeover) wait for
      // each other and never deadlock.
      const locked = await hot.run<{ id: number; status: MonitorStatus }>(trx, pgLockMonitors, [
        given.map((w) => w.monitorId),
      ]);
      const before = new Map(locked.rows.map((r) => [Number(r.id), r.status]));
      writes.push(...given.map((w) => againstStored(w, before.get(w.monitorId))));
      const params = columnsOf(writes.map(claimParams), claimValues.length);
      const { rows } = await hot.run<AlertRow & { id: number }>(trx, pgClaim, params);
      for (const row of rows) claimed.set(Number(row.id), row);
    } else {
      // SQLite has one writer: what this transaction reads stays so until it commits.
      for (const piece of pieces(given)) {
        const stored = await trx
          .selectFrom('monitors')
          .select(['id', 'status'])
          .where(
            'id',
            'in',
            piece.map((w) => w.monitorId),
          )
          .execute();
        const before = new Map(stored.map((r) => [Number(r.id), r.status as MonitorStatus]));
        const part = piece.map((w) => againstStored(w, before.get(w.monitorId)));
        writes.push(...part);
        const text = hot.sql(`claim:${part.length}`, (p) => claimSql(valuesOf(p, part.length)));
        const params: unknown[] = [];
        for (const w of part) params.push(...claimParams(w));
        const { rows } = await hot.run<AlertRow & { id: number }>(trx, text, params);
        for (const row of rows) claimed.set(Number(row.id), row);
      }
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
    return { claimed, writes };
  }

  /** The result rows of writes of distinct monitors, by monitor id. */
  async function insertResults(trx: Transaction<DB>, writes: readonly ResultWrite[]) {
    const inserted = new Map<number, ResultRow>();
    const keep = (rows: ResultRow[]) => {
      for (const row of rows) inserted.set(row.monitor_id, row);
    };
    if (engine === 'postgres') {
      const params = columnsOf(writes.map(insertParams), insertedColumns.length);
      keep((await hot.run<ResultRow>(trx, pgInsertResults, params)).rows);
      return inserted;
    }
    for (const part of pieces(writes)) {
      const text = hot.sql(
        `insert-results:${part.length}`,
        (p) =>
          `insert into check_results (${insertedColumns.map(([c]) => c).join(', ')}) values ${tuples(p, part.length, insertedColumns.length)} returning ${resultColumns.join(', ')}`,
      );
      keep((await hot.run<ResultRow>(trx, text, part.flatMap(insertParams))).rows);
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
    const { claimed, writes: checked } = await claimStates(trx, writes);
    const taken = checked.filter((w) => claimed.has(w.monitorId));
    const rows = await insertResults(
      trx,
      taken.filter((w) => !w.recorded),
    );
    const open = await openIncidentsOf(trx, taken);
    const states = new Map<number, string | null>();
    const out: InsertedResult[] = [];
    for (const w of taken) {
      const row = rows.get(w.monitorId);
      if (!row && !w.recorded) {
        throw new Error(`no result row came back for monitor ${w.monitorId}`);
      }
      if (row) await writeBrowserRun(trx, Number(row.id), w.monitorId, w.at, w.run);
      queued.n += await followAlerts(trx, w, claimed.get(w.monitorId)!, states);
      const result = row ? toResult(row) : w.recorded!;
      const incident = await followIncident(trx, w, open);
      out.push(incident ? { write: w, result, incident } : { write: w, result });
    }
    await storeAlertStates(trx, states);
    await insertFlips(
      trx,
      taken.filter((w) => w.flip),
    );
    return out;
  }

  return {
    /**
     * How many batches the result writer may write at once. PostgreSQL takes them side by side
     * (row locks in id order, batches of disjoint monitors); SQLite has one writer.
     */
    parallelBatches: engine === 'postgres' ? PG_PARALLEL_BATCHES : 1,

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
        const checks = rolledChecks(out.filter((o) => !o.write.recorded).map((o) => o.write));
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
