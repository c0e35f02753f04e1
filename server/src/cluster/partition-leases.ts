import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  PARTITIONS,
  defaultMaxRelease,
  defaultSlack,
  planStep,
  targetShares,
} from '../domain/cluster/index.js';
import type { Grant, LiveMember } from '../db/repositories/cluster.js';
import type { ClusterMember, Participant, TickView } from './member.js';

/** A partition this member now holds, with the fencing epoch its writes can carry. */
export interface PartitionGrant {
  partition: number;
  epoch: number;
}

export type LossReason = 'expired' | 'fenced' | 'released';

/**
 * Stops new work in these partitions and resolves once work in flight has finished; the
 * partitions are released after it (or after `drainTimeoutMs`, whichever is first).
 */
export type Drain = (partitions: readonly number[]) => Promise<void>;

export interface PartitionLeaseOptions {
  drain?: Drain;
  /** Upper bound of one drain (default 30 s): a stuck check never pins a partition. */
  drainTimeoutMs?: number;
  /** Surplus kept before releasing anything (hysteresis). */
  slack?: number;
  /** Partitions released per step at most. */
  maxRelease?: number;
  /** A newcomer counts in others' shares once it has lived this long (default: the expiry). */
  settleMs?: number;
  /** Partitions left free this long are taken by anyone, beyond its share (default 2 × expiry). */
  orphanMs?: number;
  /** Only for tests of small clusters; production always uses 1,024. */
  partitions?: number;
  /**
   * Scheduler members this one expects to share with from the start (itself included): the
   * primary of a machine with workers. Until the orphan window has passed it takes at most
   * its part, so it never starts with every monitor of the machine alone (ADR 25).
   */
  expectedSharers?: number;
}

export interface PartitionLeaseEvents {
  acquired: [grants: readonly PartitionGrant[]];
  lost: [partitions: readonly number[], reason: LossReason];
  draining: [partitions: readonly number[]];
}

/**
 * This member's share of the partitions (ADR 21). Each tick renews every held partition in one
 * conditional statement (a partition not returned is lost at once), acquires free ones up to
 * the capacity-weighted target and, when over it by more than the slack, drains and releases
 * the surplus a batch at a time. The scheduler asks `owns(partition)` before it starts work.
 */
export class PartitionLeases extends EventEmitter<PartitionLeaseEvents> implements Participant {
  private readonly held = new Map<number, number>();
  private readonly draining = new Set<number>();
  private readonly count: number;
  private drainInFlight: Promise<void> | null = null;
  /** Drained partitions whose release statement failed: retried first. */
  private unreleased: number[] = [];
  private target = 0;
  private ticks = 0;
  private stopped = false;

  constructor(
    private readonly member: ClusterMember,
    private readonly options: PartitionLeaseOptions = {},
  ) {
    super();
    this.count = options.partitions ?? PARTITIONS;
    member.add(this);
  }

  /** Whether this member may start work in the partition now (held, not draining, not fenced). */
  owns(partition: number): boolean {
    return this.held.has(partition) && !this.draining.has(partition) && this.member.valid();
  }

  /** The fencing token to carry with writes for the partition, or null when not owned. */
  epochOf(partition: number): number | null {
    return this.owns(partition) ? (this.held.get(partition) ?? null) : null;
  }

  /** Partitions owned now (sorted); none while fenced. */
  owned(): number[] {
    if (!this.member.valid()) return [];
    return [...this.held.keys()].filter((p) => !this.draining.has(p)).sort((a, b) => a - b);
  }

  /** Held partitions including draining ones (what the database says is ours). */
  heldCount(): number {
    return this.held.size;
  }

  /** The share this member aims at, as of the last tick. */
  targetShare(): number {
    return this.target;
  }

  async renew(view: TickView): Promise<void> {
    const { repo, id, timings } = this.member;
    const gen = this.member.gen;
    if (this.member.needsCleanup) await repo.partitions.releaseOthers(id, [...this.held.keys()]);
    const keys = [...this.held.keys()];
    const rows = await repo.partitions.renew(id, keys, timings.expireMs);
    if (!this.member.fresh(view.startedAt, gen)) return this.member.markDirty();
    const back = new Map(rows.map((r) => [r.key, r.epoch]));
    const lost = keys.filter((p) => back.get(p) !== this.held.get(p));
    if (lost.length > 0) this.drop(lost, 'expired');
  }

  async rebalance(view: TickView): Promise<void> {
    if (this.stopped) return;
    this.ticks += 1;
    const { repo, id, timings } = this.member;
    if (this.unreleased.length > 0) await this.release(this.unreleased);
    this.target = targetShares(this.sharers(view.members), this.count).get(id) ?? 0;
    const expected = this.options.expectedSharers ?? 1;
    const young = this.ticks * timings.renewMs < (this.options.orphanMs ?? 2 * timings.expireMs);
    // A young member leaves room for the sharers it expects; a standby (capacity 0) leaves all.
    if (expected > 1 && young) {
      const room = this.member.record.capacity === 0 ? 0 : Math.ceil(this.count / expected);
      this.target = Math.min(this.target, room);
    }
    const step = planStep({
      target: this.target,
      owned: this.held.size,
      slack: this.options.slack ?? defaultSlack(this.count),
      maxRelease: this.options.maxRelease ?? defaultMaxRelease(this.count),
    });
    if (step.acquire > 0) {
      await this.take(() => repo.partitions.acquire(id, step.acquire, timings.expireMs));
    } else if (step.release > 0 && !this.drainInFlight) {
      const surplus = [...this.held.keys()].filter((p) => !this.draining.has(p));
      this.startDrain(surplus.sort((a, b) => b - a).slice(0, step.release));
    }
    // The backstop for coverage: partitions nobody took for long go to whoever is not shedding.
    if (
      step.release === 0 &&
      !this.drainInFlight &&
      this.ticks % 5 === 0 &&
      !(expected > 1 && young)
    ) {
      const freeForMs = this.options.orphanMs ?? 2 * timings.expireMs;
      await this.take(() =>
        repo.partitions.acquire(id, this.count, timings.expireMs, { freeForMs }),
      );
    }
  }

  fence(): void {
    this.drop([...this.held.keys()], 'fenced');
    this.unreleased = [];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.drainInFlight;
    // Held means not fenced (a fence empties it): work in flight finishes before the release.
    const rest = [...this.held.keys()].filter((p) => !this.draining.has(p));
    if (rest.length > 0) await this.drainBounded(rest);
    await this.release([...this.held.keys()]);
  }

  /** Members that share partitions: schedulers, and newcomers only once they have settled. */
  private sharers(members: readonly LiveMember[]) {
    const dbNow = Math.max(0, ...members.map((m) => m.heartbeatAt));
    const settle = this.options.settleMs ?? this.member.timings.expireMs;
    return members
      .filter((m) => m.roles.includes('scheduler'))
      .filter((m) => m.id === this.member.id || dbNow - m.startedAt >= settle)
      .map((m) => ({ id: m.id, capacity: m.capacity }));
  }

  private async take(acquire: () => Promise<Grant<number>[]>): Promise<void> {
    const gen = this.member.gen;
    const grants = await acquire();
    if (grants.length === 0) return;
    if (gen !== this.member.gen || !this.member.valid() || this.stopped) {
      // Not honoured: the rows are ours in the database until the next tick releases them.
      return this.member.markDirty();
    }
    for (const g of grants) this.held.set(g.key, g.epoch);
    const takeovers = grants.filter((g) => g.previousOwner && g.previousOwner !== this.member.id);
    if (takeovers.length > 0) {
      this.member.observer?.takeovers('partition', takeovers.length);
      this.member.logger.info(
        { member: this.member.id, partitions: takeovers.length },
        'cluster: took over expired partitions',
      );
    }
    this.emit(
      'acquired',
      grants.map((g) => ({ partition: g.key, epoch: g.epoch })),
    );
  }

  private drop(partitions: readonly number[], reason: LossReason): void {
    if (partitions.length === 0) return;
    for (const p of partitions) {
      this.held.delete(p);
      this.draining.delete(p);
    }
    this.emit('lost', partitions, reason);
  }

  private startDrain(partitions: number[]): void {
    const gen = this.member.gen;
    this.drainInFlight = (async () => {
      await this.drainBounded(partitions);
      // A fence or an expiry in the meantime already dropped them.
      const still = partitions.filter((p) => this.draining.has(p));
      if (gen === this.member.gen && still.length > 0) await this.release(still);
    })()
      .catch((err: unknown) => this.member.logger.warn({ err }, 'cluster: drain failed'))
      .finally(() => (this.drainInFlight = null));
  }

  private async drainBounded(partitions: number[]): Promise<void> {
    for (const p of partitions) this.draining.add(p);
    this.emit('draining', partitions);
    const drain = this.options.drain;
    if (!drain) return;
    const bound = this.options.drainTimeoutMs ?? 30_000;
    const ac = new AbortController();
    const timedOut = sleep(bound, true, { signal: ac.signal }).catch(() => false);
    const done = drain(partitions).then(
      () => false,
      (err: unknown) => {
        this.member.logger.warn({ err }, 'cluster: drain callback failed; releasing anyway');
        return false;
      },
    );
    if (await Promise.race([done, timedOut])) {
      this.member.logger.warn({ partitions: partitions.length }, 'cluster: drain timed out');
    }
    ac.abort();
  }

  private async release(partitions: number[]): Promise<void> {
    if (partitions.length === 0) return;
    const { repo, id } = this.member;
    try {
      await repo.partitions.release(id, partitions);
      this.member.emit('peers');
      this.unreleased = this.unreleased.filter((p) => !partitions.includes(p));
      this.drop(
        partitions.filter((p) => this.held.has(p)),
        'released',
      );
    } catch (err) {
      this.unreleased = [...new Set([...this.unreleased, ...partitions])];
      this.member.logger.warn({ err }, 'cluster: could not release partitions; retrying');
    }
  }
}
