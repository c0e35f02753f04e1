import { PARTITIONS, partitionOf } from '../domain/cluster/index.js';
import type { CheckRequest } from '../db/repositories/check-requests.js';
import type { Repositories } from '../db/repositories/index.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { ResultSink } from './remote-results.js';
import type { Scheduler } from './scheduler.js';

/** The partition leases as the engine sees them; compose adapts the cluster's PartitionLeases. */
export interface Ownership {
  owns(partition: number): boolean;
  /** Partitions owned now (none while fenced). */
  owned(): readonly number[];
  onAcquired(listener: (partitions: readonly number[]) => void): void;
  /** Partitions gone: expired, fenced, or released after their drain. */
  onLost(listener: (partitions: readonly number[]) => void): void;
}

export interface FollowerDeps {
  ownership: Ownership | null;
  scheduler: Scheduler;
  writer: ResultSink;
  repos: Repositories;
  logger: Logger;
  clock: Clock;
  /** How often waiting requests are looked for when nothing wakes this process (ms). */
  requestPollMs?: number;
  onLateRounds?: (count: number) => void;
  onClaimed?: (count: number) => void;
}

const ALL = Array.from({ length: PARTITIONS }, (_, p) => p);
/** A check-now older than this is not run any more: the person has long moved on. */
const CHECK_REQUEST_TTL_MS = 60_000;

/**
 * Keeps the scheduler to the partitions this process owns (ADR 24): loads a partition's
 * monitors when it is acquired, forgets them when it is lost, drains them before a release,
 * and takes the push pings and check-now requests other processes handed over for them.
 * Loads and request batches run one after another, so a request never overtakes the load of
 * its monitor.
 */
export class PartitionFollower {
  private chain: Promise<void> = Promise.resolve();
  private pollTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private wakeAgain = false;
  private stopped = false;

  constructor(private readonly deps: FollowerDeps) {}

  /** Whether this process may act for the monitor now. */
  owns(monitorId: number): boolean {
    return this.deps.ownership?.owns(partitionOf(monitorId)) ?? true;
  }

  /** Loads the owned partitions' monitors (a restart: catch-ups spread over a minute). */
  async start(): Promise<number> {
    const { ownership, scheduler, repos } = this.deps;
    ownership?.onAcquired((partitions) => this.enqueue(() => this.adopt(partitions)));
    ownership?.onLost((partitions) => {
      const lost = new Set(partitions);
      void scheduler.release((id) => lost.has(partitionOf(id)));
    });
    const monitors = ownership
      ? await repos.monitors.listActiveWhere((id) => this.owns(id))
      : await repos.monitors.listActive();
    scheduler.load(monitors);
    this.schedulePoll(0);
    return monitors.length;
  }

  /** Stops new checks in these partitions; resolves once their checks ended and were written. */
  async drain(partitions: readonly number[]): Promise<void> {
    const leaving = new Set(partitions);
    await this.deps.scheduler.release((id) => leaving.has(partitionOf(id)));
    // The next owner reads the last round from the database: it must be there before release.
    await this.deps.writer.flush();
  }

  /** Another process handed over a request (NOTIFY): look now instead of at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.polling) this.wakeAgain = true;
    else this.schedulePoll(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    await this.chain;
  }

  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain
      .then(task)
      .catch((err: unknown) => this.deps.logger.error({ err }, 'partition follower task failed'));
  }

  private async adopt(partitions: readonly number[]): Promise<void> {
    if (this.stopped) return;
    const taken = new Set(partitions);
    const monitors = await this.deps.repos.monitors.listActiveWhere(
      (id) => taken.has(partitionOf(id)) && this.owns(id),
    );
    // Owned still? A partition lost during the read is not scheduled.
    const late = this.deps.scheduler.adopt(monitors.filter((m) => this.owns(m.id)));
    if (late > 0) this.deps.onLateRounds?.(late);
    this.deps.logger.debug(
      { partitions: partitions.length, monitors: monitors.length, late },
      'scheduler: took up partitions',
    );
  }

  private schedulePoll(delay = this.deps.requestPollMs ?? 1_000): void {
    if (this.stopped) return;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      this.polling = true;
      this.enqueue(() => this.takeRequests());
      void this.chain.then(() => {
        this.polling = false;
        const again = this.wakeAgain;
        this.wakeAgain = false;
        this.schedulePoll(again ? 0 : undefined);
      });
    }, delay);
    this.pollTimer.unref();
  }

  private async takeRequests(): Promise<void> {
    const owned = this.deps.ownership ? this.deps.ownership.owned() : ALL;
    const requests = await this.deps.repos.checkRequests.claim(owned);
    if (requests.length === 0) return;
    this.deps.onClaimed?.(requests.length);
    for (const request of requests) await this.apply(request);
  }

  private async apply(request: CheckRequest): Promise<void> {
    const { scheduler, logger, clock } = this.deps;
    // Owned but not scheduled: its creation was not heard here yet (or was missed); read it.
    if (this.owns(request.monitorId) && !scheduler.has(request.monitorId)) {
      const monitor = await this.deps.repos.monitors.findById(request.monitorId);
      if (monitor && !monitor.paused) scheduler.adopt([monitor]);
    }
    const done =
      request.kind === 'ping'
        ? scheduler.pushResult(request.monitorId, request.run, request.at)
        : clock.now() - request.at < CHECK_REQUEST_TTL_MS && scheduler.checkNow(request.monitorId);
    // The partition moved on between the claim and now: a ping is a result, pass it on.
    if (!done && request.kind === 'ping' && !this.owns(request.monitorId)) {
      await this.deps.repos.checkRequests.enqueue(request);
      return;
    }
    if (!done) {
      logger.info(
        { monitorId: request.monitorId, kind: request.kind },
        'a handed-over request found its monitor not scheduled here (paused, deleted or moved)',
      );
    }
  }
}
