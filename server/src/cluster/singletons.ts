import { EventEmitter } from 'node:events';
import type { ClusterMember, Participant, TickView } from './member.js';

export interface SingletonEvents {
  acquired: [epoch: number];
  lost: [reason: 'expired' | 'fenced' | 'released'];
}

/**
 * A named lease that at most one member of the deployment holds (ADR 21): the job it guards
 * runs while `held()`. Same expiry, renewal and fencing as the partitions; `epoch()` is its
 * fencing token.
 */
export class SingletonLease extends EventEmitter<SingletonEvents> {
  /** @internal the epoch while held; set by the member's tick. */
  current: number | null = null;

  constructor(
    readonly name: string,
    private readonly member: ClusterMember,
  ) {
    super();
  }

  held(): boolean {
    return this.current !== null && this.member.valid();
  }

  epoch(): number | null {
    return this.held() ? this.current : null;
  }
}

/** Every singleton of a member, renewed and acquired together: two statements per tick. */
export class Singletons implements Participant {
  private readonly leases = new Map<string, SingletonLease>();
  private ensured = false;
  private stopped = false;

  constructor(private readonly member: ClusterMember) {
    member.add(this);
  }

  /** The lease of this name (one per member). */
  lease(name: string): SingletonLease {
    let lease = this.leases.get(name);
    if (!lease) {
      lease = new SingletonLease(name, this.member);
      this.leases.set(name, lease);
      this.ensured = false;
    }
    return lease;
  }

  all(): SingletonLease[] {
    return [...this.leases.values()];
  }

  async renew(view: TickView): Promise<void> {
    const { repo, id, timings } = this.member;
    const gen = this.member.gen;
    if (!this.ensured) {
      await repo.singletons.ensure([...this.leases.keys()]);
      this.ensured = true;
    }
    const held = this.all().filter((l) => l.current !== null);
    if (this.member.needsCleanup) {
      await repo.singletons.releaseOthers(
        id,
        held.map((l) => l.name),
      );
    }
    if (held.length === 0) return;
    const rows = await repo.singletons.renew(
      id,
      held.map((l) => l.name),
      timings.expireMs,
    );
    if (!this.member.fresh(view.startedAt, gen)) return this.member.markDirty();
    const back = new Map(rows.map((r) => [r.key, r.epoch]));
    for (const lease of held) {
      if (back.get(lease.name) !== lease.current) this.drop(lease, 'expired');
    }
  }

  async rebalance(): Promise<void> {
    if (this.stopped) return;
    const { repo, id, timings } = this.member;
    const wanted = this.all().filter((l) => l.current === null);
    if (wanted.length === 0) return;
    const gen = this.member.gen;
    const grants = await repo.singletons.acquire(id, wanted.length, timings.expireMs, {
      among: wanted.map((l) => l.name),
    });
    if (grants.length === 0) return;
    if (gen !== this.member.gen || !this.member.valid() || this.stopped) {
      return this.member.markDirty();
    }
    for (const g of grants) {
      const lease = this.leases.get(g.key);
      if (!lease) continue;
      lease.current = g.epoch;
      if (g.previousOwner && g.previousOwner !== id) {
        this.member.observer?.takeovers('singleton', 1);
        this.member.logger.info({ member: id, singleton: g.key }, 'cluster: took over a singleton');
      }
      lease.emit('acquired', g.epoch);
    }
  }

  fence(): void {
    for (const lease of this.all()) if (lease.current !== null) this.drop(lease, 'fenced');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const held = this.all().filter((l) => l.current !== null);
    for (const lease of held) this.drop(lease, 'released');
    await this.member.repo.singletons.release(
      this.member.id,
      held.map((l) => l.name),
    );
  }

  private drop(lease: SingletonLease, reason: 'expired' | 'fenced' | 'released'): void {
    lease.current = null;
    lease.emit('lost', reason);
  }
}
