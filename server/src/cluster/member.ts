import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type {
  ClusterRepository,
  LiveMember,
  MemberLoad,
  MemberRecord,
} from '../db/repositories/cluster.js';
import type { Logger } from '../lib/logger.js';

/** Lease timing (ADR 21). Tests shorten it; production keeps the defaults. */
export interface ClusterTimings {
  /** A renewal every this often. */
  renewMs: number;
  /** A lease not renewed for this long (database clock) may be taken by another member. */
  expireMs: number;
  /** Allowance for the two clocks' rates and timer lateness, taken off the safe margin. */
  skewMs: number;
}

export const defaultClusterTimings: ClusterTimings = {
  renewMs: 2_000,
  expireMs: 8_000,
  skewMs: 1_000,
};

/** Metrics hooks; the member works without them. */
export interface ClusterObserver {
  renewal(seconds: number): void;
  takeovers(kind: 'partition' | 'singleton', count: number): void;
}

/** What one tick learnt, handed to every participant. */
export interface TickView {
  /** Live members, by id (this one included). */
  members: readonly LiveMember[];
  /**
   * Monotonic time the tick's first renewal was sent: what its renewals are valid from. After
   * the heartbeat and the member list, which set no lease's expiry (ADR 21, amended by ADR 72).
   */
  startedAt: number;
}

/** A kind of lease the member renews in its tick (partitions, singletons). */
export interface Participant {
  /** Renews what is held; drops what the database no longer gives back. Throws on errors. */
  renew(view: TickView): Promise<void>;
  /** After a good renewal: acquires or releases towards the share. */
  rebalance(view: TickView): Promise<void>;
  /** Drops everything locally at once: the member can no longer vouch for its leases. */
  fence(): void;
  /** Graceful stop: lets every lease go in the database. */
  stop(): Promise<void>;
}

export type MemberState = 'idle' | 'registering' | 'ok' | 'fenced' | 'stopped';

export interface ClusterMemberOptions {
  repo: ClusterRepository;
  name: string;
  version: string;
  capacity: number;
  roles: readonly string[];
  logger: Logger;
  timings?: Partial<ClusterTimings>;
  observer?: ClusterObserver;
  /** Monotonic milliseconds (performance.now); injectable for tests. */
  now?: () => number;
  /** Rows of members silent this long are deleted (default one hour). */
  reapAfterMs?: number;
  /** What this process is doing, published with every heartbeat. */
  load?: () => MemberLoad;
}

/** Error thrown inside a tick whose results arrived after the member fenced itself. */
export class StaleTick extends Error {}

/**
 * Events: `registered`, `fenced`, `unfenced`, and `peers` when the others should renew at
 * once (this member joined, left or released leases; compose sends it over NOTIFY).
 *
 * This process as a cluster member: registers, heartbeats and renews every lease of its
 * participants in one tick every `renewMs`, on the database's clock. If no tick succeeded for
 * longer than the safe margin (expiry − renewal − skew, on the monotonic clock, from when the
 * last good tick was sent) it fences itself: every participant drops its leases before anyone
 * else may take them, so a process that was paused never acts on stale leases.
 */
export class ClusterMember extends EventEmitter {
  readonly id = randomUUID();
  readonly timings: ClusterTimings;
  readonly record: MemberRecord;
  private state: MemberState = 'idle';
  private readonly participants: Participant[] = [];
  private readonly now: () => number;
  private fenceAt = -Infinity;
  private fenceTimer: NodeJS.Timeout | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private ticks = 0;
  private generation = 0;
  private dirty = false;
  private lastFailureLog = -Infinity;
  private live: readonly LiveMember[] = [];
  private lastTickAt = -Infinity;
  private wakePending = false;

  constructor(private readonly options: ClusterMemberOptions) {
    super();
    this.timings = { ...defaultClusterTimings, ...options.timings };
    const { renewMs, expireMs, skewMs } = this.timings;
    if (this.margin() < renewMs) {
      throw new Error(
        `cluster timings leave no safe margin: expire (${expireMs}) must exceed 2 × renew (${renewMs}) + skew (${skewMs})`,
      );
    }
    this.now = options.now ?? (() => performance.now());
    this.record = {
      id: this.id,
      name: options.name,
      version: options.version,
      capacity: options.capacity,
      roles: options.roles,
    };
  }

  get repo(): ClusterRepository {
    return this.options.repo;
  }

  get observer(): ClusterObserver | undefined {
    return this.options.observer;
  }

  get logger(): Logger {
    return this.options.logger;
  }

  /** Time after a good tick's start during which its leases are honoured. */
  margin(): number {
    const { renewMs, expireMs, skewMs } = this.timings;
    return expireMs - renewMs - skewMs;
  }

  /** Bumped at each fence: results of statements sent before it are not honoured. */
  get gen(): number {
    return this.generation;
  }

  /** Set when rows may be ours in the database that we do not honour (after a fence). */
  get needsCleanup(): boolean {
    return this.dirty;
  }

  markDirty(): void {
    this.dirty = true;
  }

  add(participant: Participant): void {
    this.participants.push(participant);
  }

  /** Live members as of the last tick. */
  members(): readonly LiveMember[] {
    return this.live;
  }

  /**
   * Whether this member may act on its leases right now. Checked against the monotonic clock
   * on every call, so a process resuming from a pause fences before it does anything else.
   */
  valid(): boolean {
    if (this.state !== 'ok') return false;
    if (this.now() < this.fenceAt) return true;
    this.fence('no renewal within the safe margin');
    return false;
  }

  health(): { state: MemberState; id: string; members: number } {
    if (this.state === 'ok') this.valid();
    return { state: this.state, id: this.id, members: this.live.length };
  }

  /** Registers and runs the first tick before returning (a lone process holds its leases at once). */
  async start(): Promise<void> {
    if (this.state !== 'idle') return;
    this.state = 'registering';
    await this.runTick();
    this.schedule();
  }

  /** Runs a tick soon instead of at the next period (a peer joined, left or released). */
  wake(): void {
    if (this.state === 'idle' || this.state === 'stopped') return;
    // A tick under way may have read the table before the peer's change: one more after it.
    if (this.running) {
      this.wakePending = true;
      return;
    }
    // A burst of wakes (several peers releasing) costs one early tick, not one each.
    this.schedule(Math.max(0, this.lastTickAt + 50 - this.now()));
  }

  /** Lets every lease go, then leaves the member list: others take over at once. */
  async stop(): Promise<void> {
    if (this.state === 'stopped' || this.state === 'idle') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopped';
    if (this.tickTimer) clearTimeout(this.tickTimer);
    if (this.fenceTimer) clearTimeout(this.fenceTimer);
    await this.running;
    for (const p of this.participants) {
      await p.stop().catch((err: unknown) => this.logger.warn({ err }, 'cluster: release failed'));
    }
    await this.repo.leave(this.id).catch((err: unknown) => {
      this.logger.warn({ err }, 'cluster: could not leave the member list');
    });
    this.emit('peers');
  }

  /** Drops every lease locally; the next good tick releases their rows and starts afresh. */
  fence(reason: string): void {
    if (this.state !== 'ok') return;
    this.state = 'fenced';
    this.generation += 1;
    this.dirty = true;
    if (this.fenceTimer) clearTimeout(this.fenceTimer);
    this.fenceTimer = null;
    this.logger.warn({ member: this.id, reason }, 'cluster: fenced; dropped every lease');
    for (const p of this.participants) p.fence();
    this.emit('fenced', reason);
  }

  private stopped(): boolean {
    return this.state === 'stopped';
  }

  private schedule(delay = this.timings.renewMs): void {
    if (this.state === 'stopped') return;
    if (this.tickTimer) clearTimeout(this.tickTimer);
    if (this.wakePending) delay = Math.min(delay, 50);
    this.wakePending = false;
    this.tickTimer = setTimeout(() => {
      this.tickTimer = null;
      // At a fixed rate from each tick's start, not a period after its end: a slow tick (its
      // writes queued behind others) must not push the next renewal towards the fence.
      void this.runTick().then(() =>
        this.schedule(Math.max(0, this.lastTickAt + this.timings.renewMs - this.now())),
      );
    }, delay);
    this.tickTimer.unref();
  }

  private runTick(): Promise<void> {
    this.running ??= this.tick().finally(() => (this.running = null));
    return this.running;
  }

  private async tick(): Promise<void> {
    if (this.state === 'stopped') return;
    const startedAt = this.now();
    this.lastTickAt = startedAt;
    const gen = this.generation;
    try {
      const { repo } = this;
      const steps: Record<string, number> = {};
      const step = (name: string, from: number) => (steps[name] = Math.round(this.now() - from));
      if (
        this.state === 'registering' ||
        !(await repo.heartbeat(this.id, this.options.load?.() ?? null))
      ) {
        await repo.register(this.record);
      }
      step('heartbeatMs', startedAt);
      const at = this.now();
      this.live = await repo.liveMembers(this.timings.expireMs);
      step('membersMs', at);
      // The leases' expiry is set by the renewal statements alone (a taker looks at nothing
      // else), each sent after this: valid from here, not from the heartbeat before it, so a
      // heartbeat that waited for the write lock no longer eats into the margin (ADR 72).
      const renewSentAt = this.now();
      const view: TickView = { members: this.live, startedAt: renewSentAt };
      for (const p of this.participants) await p.renew(view);
      step('renewMs', renewSentAt);
      if (!this.fresh(renewSentAt, gen)) {
        // Which step was slow tells a stalled database from a process waiting for its turn.
        throw Object.assign(new StaleTick('the renewal came back too late'), steps);
      }
      this.dirty = false;
      this.confirm(renewSentAt);
      this.options.observer?.renewal((this.now() - startedAt) / 1000);
      for (const p of this.participants) await p.rebalance(view);
      this.ticks += 1;
      if (this.ticks % 300 === 1) await repo.reapMembers(this.options.reapAfterMs ?? 3_600_000);
    } catch (err) {
      if (this.stopped()) return;
      if (this.now() - this.lastFailureLog > 30_000) {
        this.lastFailureLog = this.now();
        this.logger.warn({ err, member: this.id }, 'cluster: lease renewal failed');
      }
      // A failed tick may still have changed rows (a timeout after the commit): clean up.
      this.dirty = true;
      this.valid();
    }
  }

  /** Whether results of a tick sent at `startedAt` may still be honoured. */
  fresh(startedAt: number, gen: number): boolean {
    return gen === this.generation && this.now() < startedAt + this.margin();
  }

  private confirm(startedAt: number): void {
    const was = this.state;
    // A stop that began during this tick wins: the leases are being let go.
    if (was === 'stopped') throw new StaleTick('stopped during the tick');
    this.state = 'ok';
    this.fenceAt = startedAt + this.margin();
    if (this.fenceTimer) clearTimeout(this.fenceTimer);
    this.fenceTimer = setTimeout(() => this.valid(), Math.max(0, this.fenceAt - this.now()) + 1);
    this.fenceTimer.unref();
    if (was === 'fenced') {
      this.logger.info({ member: this.id }, 'cluster: renewing again after a fence');
      this.emit('unfenced');
    } else if (was === 'registering') {
      this.emit('registered');
      this.emit('peers');
    }
  }
}
