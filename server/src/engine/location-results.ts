import type { CheckResult } from '@pagewatch/contract';
import type { CheckRun } from '../domain/check-run.js';
import { pushRecent } from '../domain/monitor.js';
import { applyQuorum } from '../domain/quorum/state.js';
import { decideQuorum, freshForMs, type QuorumVerdict } from '../domain/quorum/verdict.js';
import { dueOf, roundAt } from '../domain/schedule.js';
import type {
  LocationResultRow,
  QuorumSubject,
  StoredVerdict,
  locationResultsRepository,
} from '../db/repositories/location-results.js';
import type { InsertedResult, ResultWrite } from '../db/repositories/results.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';

/** One location's result of one round, as a probe (or the local scheduler) reports it. */
export interface LocationResultItem {
  monitorId: number;
  /** The round's due time on the server's grid (ISO). */
  roundAt: string;
  /** When the check started (ISO). */
  startedAt: string;
  result: CheckRun;
}

export type LocationRefusal = 'unknown_monitor' | 'not_assigned' | 'invalid_round';

export interface LocationIngestOutcome {
  accepted: number;
  duplicates: number;
  refused: { index: number; code: LocationRefusal }[];
}

export interface LocationResultDeps {
  repos: {
    locationResults: ReturnType<typeof locationResultsRepository>;
    results: { writeBatch(writes: readonly ResultWrite[]): Promise<InsertedResult[]> };
  };
  clock: Clock;
  logger: Logger;
  /** Whether the monitor is in an active maintenance window at this instant. */
  inMaintenance?: (monitorId: number, at: number) => boolean;
  /** Told of every combined decision written (events for dashboards, SSE). */
  onWritten?: (written: InsertedResult[]) => void;
  /** Serialises the decisions of one monitor in this process (see `DecisionQueue`). */
  queue?: DecisionQueue;
}

/**
 * Records one location's results (ADR 58): each (monitor, location, round) once in history
 * and the rollups; unless `replayed`, each becomes its location's live verdict and the
 * monitor's combined status is decided again from its locations' fresh verdicts, through the
 * same writer path (flip, alerts, incident) as a single location's result. Replayed results
 * (a probe's spool after an outage) are history only: they never flip live status.
 */
export async function recordLocationResults(
  deps: LocationResultDeps,
  locationId: string,
  items: readonly LocationResultItem[],
  options: { replayed: boolean },
): Promise<LocationIngestOutcome> {
  const repo = deps.repos.locationResults;
  const subjects = await repo.subjects([...new Set(items.map((i) => i.monitorId))]);
  const refused: LocationIngestOutcome['refused'] = [];
  const rows: LocationResultRow[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  items.forEach((item, index) => {
    const m = subjects.get(item.monitorId);
    if (!m) return refused.push({ index, code: 'unknown_monitor' });
    if (!m.locations.includes(locationId)) return refused.push({ index, code: 'not_assigned' });
    const row = toRow(m, locationId, item);
    if (!row) return refused.push({ index, code: 'invalid_round' });
    const key = `${row.monitorId}/${row.round}`;
    if (seen.has(key)) return (duplicates += 1);
    seen.add(key);
    rows.push(row);
  });
  const stored = await repo.insert(rows);
  duplicates += rows.length - stored.size;
  if (!options.replayed && stored.size > 0) {
    const fresh = [...stored].map(([i, result]) => ({ row: rows[i]!, result }));
    await repo.keepVerdicts(latestPerMonitor(fresh.map((f) => f.row)));
    await decideAll(deps, fresh, subjects);
  }
  return { accepted: stored.size, duplicates, refused };
}

/** The row of an item: its round on the monitor's grid; null when its times are not times. */
function toRow(
  m: QuorumSubject,
  locationId: string,
  item: LocationResultItem,
): LocationResultRow | null {
  const due = Date.parse(item.roundAt);
  const at = Date.parse(item.startedAt);
  if (!Number.isFinite(due) || !Number.isFinite(at)) return null;
  const interval = m.interval * 1000;
  const round = roundAt(m.id, interval, due);
  return {
    monitorId: m.id,
    locationId,
    round,
    roundDue: dueOf(m.id, interval, round),
    at,
    run: item.result,
  };
}

/** One verdict per monitor: the latest round of this batch (the store keeps the latest too). */
function latestPerMonitor(rows: readonly LocationResultRow[]): LocationResultRow[] {
  const latest = new Map<number, LocationResultRow>();
  for (const r of rows) {
    const had = latest.get(r.monitorId);
    if (!had || had.roundDue <= r.roundDue) latest.set(r.monitorId, r);
  }
  return [...latest.values()];
}

async function decideAll(
  deps: LocationResultDeps,
  fresh: { row: LocationResultRow; result: CheckResult }[],
  subjects: ReadonlyMap<number, QuorumSubject>,
): Promise<void> {
  const byMonitor = new Map<number, { row: LocationResultRow; result: CheckResult }>();
  for (const f of fresh) {
    const had = byMonitor.get(f.row.monitorId);
    if (!had || had.row.roundDue <= f.row.roundDue) byMonitor.set(f.row.monitorId, f);
  }
  const queue = deps.queue ?? new DecisionQueue();
  await Promise.all(
    [...byMonitor.values()]
      .filter((f) => !subjects.get(f.row.monitorId)!.paused)
      .map((f) => queue.run(f.row.monitorId, () => decideOne(deps, f.row, f.result))),
  );
}

/**
 * Decides one monitor again after a location's result: reads its state and verdicts afresh
 * (another decision may have just been written) and writes the combined status with the
 * result that led to it. A decision for a round before the last one decided changes nothing.
 */
export async function decideOne(
  deps: LocationResultDeps,
  row: LocationResultRow,
  result: CheckResult,
): Promise<QuorumVerdict | null> {
  const repo = deps.repos.locationResults;
  const m = (await repo.subjects([row.monitorId])).get(row.monitorId);
  if (!m || m.paused) return null;
  if (m.lastRoundDue !== null && row.roundDue < m.lastRoundDue) return null;
  const now = deps.clock.now();
  const verdicts = await repo.verdicts(m.id);
  const verdict = decideQuorum({
    locations: m.locations,
    k: m.quorum,
    verdicts,
    now,
    freshMs: freshForMs(m.interval),
  });
  const newRound = m.lastRoundDue === null || row.roundDue > m.lastRoundDue;
  const state = { status: m.status, failures: m.failures };
  const t = applyQuorum(state, verdict.outcome, m.retries, newRound, {
    at: row.at,
    code: row.run.errorCode,
    message: row.run.errorMessage,
  });
  const run = namingFailures(row.run, verdict, verdicts);
  const write: ResultWrite = {
    monitorId: m.id,
    at: row.at,
    run,
    status: t.next.status,
    failures: t.next.failures,
    recent: pushRecent(m.recent, [row.run.outcome, row.run.latencyMs]),
    flip: t.flip,
    firstFailure: t.next.firstFailure ?? null,
    maintenance: deps.inMaintenance?.(m.id, row.at) ?? false,
    round: {
      round: row.round,
      roundDue: row.roundDue,
      attempt: newRound ? 0 : (m.lastAttempt ?? 0) + 1,
    },
    // Events carry the decision's words (where it fails); the stored row keeps its own.
    recorded: { ...result, errorCode: run.errorCode, errorMessage: run.errorMessage },
  };
  const written = await deps.repos.results.writeBatch([write]);
  if (written.length > 0) deps.onWritten?.(written);
  return verdict;
}

/**
 * The run a REGIONAL or quorum DOWN is announced with: its message names the failing locations
 * ("Failing from EU West, US East: connection refused"), so the dashboard, the flip and the
 * alert say where. The history row keeps the location's own run.
 */
function namingFailures(run: CheckRun, verdict: QuorumVerdict, verdicts: StoredVerdict[]) {
  if (verdict.outcome !== 'regional' && verdict.outcome !== 'down') return run;
  const failing = verdicts.filter((v) => verdict.failing.includes(v.locationId));
  const first = failing[0];
  if (!first) return run;
  const names = failing.map((v) => v.name).join(', ');
  const said = first.errorMessage ?? first.errorCode ?? 'the check failed';
  return {
    ...run,
    errorCode: run.errorCode ?? (first.errorCode as CheckRun['errorCode']),
    errorMessage: `Failing from ${names}: ${said}`,
  };
}

/**
 * Runs the decisions of one monitor one after another in this process: two locations'
 * results arriving together must not both read the old state and write over each other.
 */
export class DecisionQueue {
  private readonly tails = new Map<number, Promise<unknown>>();

  run<T>(monitorId: number, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(monitorId) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.catch(() => {});
    this.tails.set(monitorId, tail);
    void tail.then(() => {
      if (this.tails.get(monitorId) === tail) this.tails.delete(monitorId);
    });
    return next;
  }
}
