import type { CheckRun } from '../domain/check-run.js';
import type { Repositories } from '../db/repositories/index.js';
import type { InsertedResult } from '../db/repositories/results.js';
import type { Clock } from '../lib/clock.js';
import type { EventHub } from '../lib/event-hub.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../lib/metrics.js';
import { checkTypes, type EngineOptions } from './checks/registry.js';
import { StallWatch } from '../lib/stall-watch.js';
import { noMaintenance, type MaintenanceLookup } from './maintenance.js';
import { unknownWhenOffline } from './unknown-result.js';
import { PartitionFollower, type Ownership } from './ownership.js';
import type { IpcLink } from '../lib/ipc-bridge.js';
import { RemoteResultWriter, writeWorkerResults, type ResultSink } from './remote-results.js';
import { ResultWriter } from './result-writer.js';
import type { LocationIngest } from './location-ingest.js';
import { publishWritten } from './publish-written.js';
import { Scheduler } from './scheduler.js';

export interface EngineDeps {
  repos: Repositories;
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  concurrency: number;
  options?: EngineOptions;
  /** Active maintenance windows; none when absent. */
  maintenance?: MaintenanceLookup;
  /** The partitions this process owns (ADR 24); absent: every monitor is this process's. */
  ownership?: Ownership;
  /** How often handed-over requests are looked for without a wake-up (ms, default 1,000). */
  requestPollMs?: number;
  /**
   * SQLite with scheduler workers (ADR 25): a worker hands its results to the primary
   * (`handTo`), the primary writes its workers' results with its own (`takeFrom`).
   */
  results?: { handTo: IpcLink } | { takeFrom: IpcLink };
  /** The self-connectivity guard (ADR 41): asked after a failed check whether we are offline. */
  connectivity?: { offline(): Promise<boolean> };
  /** The quorum's ingest (ADR 58): checks of monitors with several locations go there. */
  locations?: LocationIngest;
  /** Hears what this process's writer wrote (groups following their members' flips). */
  onWritten?: (written: InsertedResult[]) => void;
}

/** The check engine: scheduler, runner and result writer, wired to the event hub. */
export function createEngine(deps: EngineDeps) {
  const { repos, hub, logger, metrics } = deps;
  const maintenance = deps.maintenance ?? noMaintenance;
  // A worker on SQLite hands its results to the primary and writes none itself (ADR 25).
  const handTo = deps.results && 'handTo' in deps.results ? deps.results.handTo : null;
  const localWriter = () =>
    new ResultWriter(
      repos.results,
      publishWritten(hub, maintenance, deps.clock, deps.onWritten),
      logger,
      {
        onDrop: () => metrics.writesDropped.inc(),
        onDuplicate: (n) => metrics.duplicatesDropped.inc(n),
      },
    );
  let sink: ResultSink;
  if (handTo) {
    sink = new RemoteResultWriter(handTo, logger, { onDrop: () => metrics.writesDropped.inc() });
  } else {
    const writer = localWriter();
    if (deps.results && 'takeFrom' in deps.results) {
      writeWorkerResults(deps.results.takeFrom, writer);
    }
    sink = writer;
  }

  // Started with the scheduler: a check that timed out while this process stalled isn't counted.
  const stalls = new StallWatch(deps.clock);
  const starts = new StartRate(deps.clock);
  let follower: PartitionFollower | null = null;
  const scheduler = new Scheduler({
    owns: (id) => follower?.owns(id) ?? true,
    onUnowned: () => metrics.cluster.unowned.inc(),
    clock: deps.clock,
    logger,
    concurrency: deps.concurrency,
    run: async (monitor, signal) =>
      unknownWhenOffline(
        await checkTypes[monitor.type].run(
          monitor,
          { signal, now: deps.clock.now() },
          deps.options ?? {},
        ),
        deps.connectivity,
      ),
    notBefore: (monitor) => checkTypes[monitor.type].notBefore?.(monitor) ?? null,
    record: (write) => {
      metrics.checks.inc({ outcome: write.run.outcome });
      const code = write.run.errorCode;
      if (code !== null) metrics.checkFailures.inc({ code });
      metrics.monitorCounters.record(write.monitorId, write.run.outcome, code);
      sink.enqueue(write);
    },
    onStart: (ms) => {
      starts.count();
      metrics.lateness.observe(ms / 1000);
      metrics.latenessSummary.observe(ms / 1000);
    },
    stalls,
    onDiscard: (reason, monitorId) => {
      metrics.discarded.inc({ reason });
      logger.warn({ monitorId, reason }, 'check result not counted: Pagewatch was overloaded');
    },
    inMaintenance: (id, at) => maintenance.inMaintenance(id, at),
    ...(deps.locations
      ? {
          recordLocation: (m, run, startedAt, roundDue) => {
            metrics.checks.inc({ outcome: run.outcome });
            deps.locations!.recordLocal(m, run, startedAt, roundDue);
          },
        }
      : {}),
  });

  // A window began or ended (or was edited): dashboards change now, not at the next check.
  const stopFollowingMaintenance = maintenance.onChange(({ at, wasIn, isIn }) => {
    const when = new Date(at).toISOString();
    for (const m of scheduler.monitors()) {
      const was = wasIn(m.id);
      const is = isIn(m.id);
      if (was === is) continue;
      hub.publish({
        kind: 'status',
        monitorId: m.id,
        from: was ? 'maintenance' : m.state.status,
        to: is ? 'maintenance' : m.state.status,
        at: when,
        errorCode: is ? null : (m.lastCheck?.errorCode ?? null),
        message: is ? null : (m.lastCheck?.errorMessage ?? null),
      });
    }
  });

  follower = new PartitionFollower({
    ownership: deps.ownership ?? null,
    scheduler,
    writer: sink,
    repos,
    logger,
    clock: deps.clock,
    ...(deps.requestPollMs ? { requestPollMs: deps.requestPollMs } : {}),
    onLateRounds: (n) => metrics.cluster.lateRounds.inc(n),
    onClaimed: (n) => metrics.cluster.requests.inc({ direction: 'claimed' }, n),
  });
  const following = follower;

  // Definitions change through the services; the engine follows them through the hub.
  const unsubscribe = hub.subscribe(({ event }) => {
    if (event.kind === 'monitors') {
      // A bulk change: the monitors this process schedules are read in one go.
      const mine = event.monitorIds.filter((id) => following.owns(id));
      for (const id of event.monitorIds) if (!following.owns(id)) scheduler.remove(id);
      if (mine.length === 0) return;
      repos.monitors
        .findByIds(mine)
        .then((found) => {
          const seen = new Set<number>();
          for (const m of found) {
            seen.add(m.id);
            scheduler.upsert(m);
          }
          for (const id of mine) if (!seen.has(id)) scheduler.remove(id);
        })
        .catch((err: unknown) =>
          logger.error({ err, monitors: mine.length }, 'could not reload monitors'),
        );
      return;
    }
    if (event.kind !== 'monitor') return;
    if (event.change === 'deleted') return scheduler.remove(event.monitorId);
    // Another process schedules it; it hears the same event.
    if (!following.owns(event.monitorId)) return scheduler.remove(event.monitorId);
    repos.monitors
      .findById(event.monitorId)
      .then((m) => (m ? scheduler.upsert(m) : scheduler.remove(event.monitorId)))
      .catch((err: unknown) =>
        logger.error({ err, monitorId: event.monitorId }, 'could not reload monitor'),
      );
  });

  metrics.monitorCounters.active = true;
  metrics.probes.scheduled = () => scheduler.size;
  metrics.probes.inFlight = () => scheduler.running;
  metrics.probes.writeQueue = () => sink.pending;

  return {
    async start(): Promise<void> {
      stalls.start();
      const monitors = await following.start();
      logger.info({ monitors }, 'scheduler started');
    },
    checkNow: (id: number) => scheduler.checkNow(id),
    /** Stops checks of partitions about to be released; resolves once their results are written. */
    drain: (partitions: readonly number[]) => following.drain(partitions),
    /** Another process handed a request over: look for it now. */
    wakeRequests: () => following.wake(),
    /** What this process is doing, for its cluster member row. */
    load: () => ({
      monitors: scheduler.size,
      inFlight: scheduler.running,
      checksPerMinute: starts.perMinute(),
    }),
    pushResult: (id: number, run: CheckRun, at: number) => scheduler.pushResult(id, run, at),
    /** Stops scheduling, lets running checks end (they are bounded by their timeout), writes what is left. */
    async stop(): Promise<void> {
      unsubscribe();
      stalls.stop();
      await following.stop();
      stopFollowingMaintenance();
      await scheduler.stop();
      await sink.flush();
    },
    abort: () => scheduler.abortInFlight(),
    scheduler,
    writer: sink,
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** Checks started over the last minute, in six 10-second buckets. */
class StartRate {
  private readonly buckets = new Array<number>(6).fill(0);
  private bucketAt = 0;

  constructor(private readonly clock: Clock) {}

  count(): void {
    this.roll();
    this.buckets[this.buckets.length - 1]! += 1;
  }

  perMinute(): number {
    this.roll();
    return this.buckets.reduce((a, b) => a + b, 0);
  }

  private roll(): void {
    const now = Math.floor(this.clock.now() / 10_000);
    const shift = Math.min(this.buckets.length, now - this.bucketAt);
    for (let i = 0; i < shift; i++) {
      this.buckets.shift();
      this.buckets.push(0);
    }
    this.bucketAt = now;
  }
}
