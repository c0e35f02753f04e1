import { setMaxListeners } from 'node:events';
import type { CheckRun } from '../domain/check-run.js';
import { overloadVerdict } from '../domain/overload.js';
import { checkedLocally, decidedByQuorum, type MonitorRecord } from '../domain/monitor.js';
import {
  BurstSpreader,
  dueOf,
  keyAfter,
  nextSlot,
  resumeSlot,
  roundAt,
  roundPassedUnchecked,
  takeoverSlot,
  takeoverSpreadMs,
  type RoundKey,
  type Slot as Planned,
} from '../domain/schedule.js';
import { applyResult } from './apply-result.js';
import type { SchedulerDeps } from './scheduler-deps.js';
import { MinHeap } from '../lib/min-heap.js';
import { Fifo } from '../lib/fifo.js';

interface Entry {
  monitor: MonitorRecord;
  due: number;
  /** The round the next check belongs to (an extra check belongs to the current round). */
  round: number;
  /** The key of the last result recorded for this monitor; results after it count up from it. */
  last: RoundKey | null;
  /** Bumped on every reschedule; heap items with an older generation are stale. */
  gen: number;
  running: boolean;
  /** Consecutive results thrown away because Pagewatch, not the target, was overloaded. */
  discarded: number;
}

interface Slot {
  id: number;
  due: number;
  gen: number;
}

export type { SchedulerDeps } from './scheduler-deps.js';

/**
 * Runs each active monitor at its interval from one timer over a min-heap of due
 * times. State transitions happen here, in memory, so a result's status is known
 * the moment the check ends; the writer persists both together.
 */
export class Scheduler {
  private readonly entries = new Map<number, Entry>();
  private readonly heap = new MinHeap<Slot>((s) => s.due);
  private readonly waiting = new Fifo<Slot>();
  private readonly inFlight = new Set<Promise<void>>();
  /** The check in flight per monitor, so a drain can wait for exactly its partitions' checks. */
  private readonly runningChecks = new Map<number, Promise<void>>();
  /**
   * The last round this process checked of monitors it let go (a fence, a release). Their
   * results may still be in the writer's queue, not yet in the database: taken back, such a
   * monitor must not check those rounds again.
   */
  private readonly released = new Map<number, RoundKey>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private stopped = false;
  private readonly spreader = new BurstSpreader();

  constructor(private readonly deps: SchedulerDeps) {
    // Every running check listens on this one signal; hundreds at once are expected.
    setMaxListeners(0, this.abort.signal);
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: number): boolean {
    return this.entries.has(id);
  }

  get running(): number {
    return this.inFlight.size;
  }

  /** Loads monitors at start-up, spreading overdue ones over their first interval. */
  load(monitors: readonly MonitorRecord[]): void {
    const now = this.deps.clock.now();
    for (const m of monitors) {
      const i = m.interval * 1000;
      // Rows written before rounds have only a time: the round it fell in stands for it.
      const lastDue =
        m.lastRound?.roundDue ??
        (m.lastCheck ? dueOf(m.id, i, roundAt(m.id, i, m.lastCheck.at)) : null);
      this.put(m, resumeSlot(m.id, i, lastDue, now));
    }
    this.arm();
  }

  /**
   * Monitors of partitions this process just took over. A monitor whose current round passed
   * without a result runs it within a second; one already checked waits for its next round.
   * Returns how many were late (their current round passed unchecked).
   */
  adopt(monitors: readonly MonitorRecord[]): number {
    if (this.stopped) return 0;
    const now = this.deps.clock.now();
    const taken: MonitorRecord[] = [];
    let passed = 0;
    for (const m of monitors) {
      if (this.entries.has(m.id) || m.paused) continue;
      const mine = this.released.get(m.id);
      this.released.delete(m.id);
      if (mine && (!m.lastRound || mine.roundDue > m.lastRound.roundDue)) m.lastRound = mine;
      taken.push(m);
      const lastDue = m.lastRound?.roundDue ?? null;
      if (roundPassedUnchecked(m.id, m.interval * 1000, lastDue, now)) passed += 1;
    }
    const total = this.entries.size + taken.length;
    let late = 0;
    for (const m of taken) {
      const intervalMs = m.interval * 1000;
      const spread = takeoverSpreadMs(intervalMs, passed, total);
      const slot = takeoverSlot(m.id, intervalMs, m.lastRound?.roundDue ?? null, now, spread);
      if (dueOf(m.id, intervalMs, slot.round) < now) late += 1;
      this.put(m, slot);
    }
    this.arm();
    return late;
  }

  /**
   * Stops scheduling the monitors `which` selects (their partitions are leaving this process)
   * and resolves once their checks in flight have ended.
   */
  release(which: (monitorId: number) => boolean): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const id of [...this.entries.keys()]) {
      if (!which(id)) continue;
      const entry = this.entries.get(id);
      if (entry?.last) this.released.set(id, entry.last);
      this.entries.delete(id);
      const running = this.runningChecks.get(id);
      if (running) waits.push(running);
    }
    return Promise.allSettled(waits).then(() => {});
  }

  /** A new or changed monitor: checked right away (unless it comes in a burst), then on its interval. */
  upsert(monitor: MonitorRecord): void {
    if (this.stopped) return;
    if (monitor.paused || !checkedLocally(monitor)) return this.remove(monitor.id);
    const existing = this.entries.get(monitor.id);
    if (existing) {
      existing.monitor = monitor;
      if (!existing.running) this.checkExtra(existing);
    } else {
      this.put(
        monitor,
        this.spreader.firstSlot(monitor.id, monitor.interval * 1000, this.deps.clock.now()),
      );
    }
    this.arm();
  }

  remove(id: number): void {
    this.entries.delete(id);
  }

  /** The scheduled monitors as last checked: status and state live on these records. */
  monitors(): IterableIterator<MonitorRecord> {
    return [...this.entries.values()].map((e) => e.monitor).values();
  }

  /** Runs a check now unless one is already running; false when the monitor isn't scheduled. */
  checkNow(id: number): boolean {
    const entry = this.entries.get(id);
    if (!entry || this.stopped || !this.mayAct(id)) return false;
    if (!entry.running) {
      this.checkExtra(entry);
      this.arm();
    }
    return true;
  }

  /** A check outside the plan (check-now, an edit): now, as a further attempt of the current round. */
  private checkExtra(entry: Entry): void {
    const now = this.deps.clock.now();
    this.reschedule(entry, {
      round: roundAt(entry.monitor.id, entry.monitor.interval * 1000, now),
      due: now,
    });
  }

  /**
   * A result that arrived instead of being fetched (a push ping): applied and recorded like a
   * check's, at `at`, and the monitor's next check is put off to when the type says it is
   * due again. False when the monitor isn't scheduled here (paused, unknown, not loaded yet).
   */
  pushResult(id: number, run: CheckRun, at: number): boolean {
    const entry = this.entries.get(id);
    if (!entry || this.stopped || !this.mayAct(id)) return false;
    const m = entry.monitor;
    // A ping is a further attempt of the round it arrived in: every ping counts, none twice.
    const round = keyAfter(entry.last, id, m.interval * 1000, roundAt(id, m.interval * 1000, at));
    entry.last = round;
    const { write } = applyResult(m, run, at, round, {
      maintenance: this.deps.inMaintenance?.(id, at) ?? false,
      failureDetails: false,
    });
    m.lastPingAt = at;
    this.deps.record(write);
    // A check in flight reschedules itself when it ends, and notBefore holds it then.
    if (!entry.running) {
      this.reschedule(entry, this.slotAt(m, this.deps.notBefore?.(m) ?? at + m.interval * 1000));
      this.arm();
    }
    return true;
  }

  /** Stops scheduling and waits for in-flight checks, which end within their timeout. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.heap.clear();
    this.waiting.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Aborts in-flight checks at once (second signal, or a deadline passed). */
  abortInFlight(): void {
    this.abort.abort();
  }

  private mayAct(id: number): boolean {
    return this.deps.owns?.(id) ?? true;
  }

  private put(monitor: MonitorRecord, { round, due }: Planned): void {
    // Checked only from remote locations (ADR 58): their probes run it, not this scheduler.
    if (!checkedLocally(monitor)) return;
    const last = monitor.lastRound ?? null;
    const entry: Entry = { monitor, due, round, last, gen: 0, running: false, discarded: 0 };
    this.entries.set(monitor.id, entry);
    this.heap.push({ id: monitor.id, due, gen: 0 });
  }

  private reschedule(entry: Entry, { round, due }: Planned): void {
    entry.due = due;
    entry.round = round;
    entry.gen += 1;
    this.heap.push({ id: entry.monitor.id, due, gen: entry.gen });
  }

  /** A check at `due` outside the plan (a retry, a push deadline) is in the round `due` falls in. */
  private slotAt(m: MonitorRecord, due: number, atLeast = -Infinity): Planned {
    return { round: Math.max(atLeast, roundAt(m.id, m.interval * 1000, due)), due };
  }

  private arm(): void {
    if (this.stopped) return;
    const next = this.heap.peek();
    if (!next) return;
    if (this.timer && this.timerAt <= next.due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next.due;
    this.timer = setTimeout(() => this.tick(), Math.max(0, next.due - this.deps.clock.now()));
  }

  private tick(): void {
    this.timer = null;
    this.timerAt = Infinity;
    const now = this.deps.clock.now();
    for (let slot = this.heap.peek(); slot && slot.due <= now; slot = this.heap.peek()) {
      this.heap.pop();
      const entry = this.entries.get(slot.id);
      if (!entry || entry.gen !== slot.gen || entry.running) continue;
      if (!this.mayAct(slot.id)) continue;
      if (this.inFlight.size < this.deps.concurrency) this.start(entry, slot.due);
      else this.waiting.push(slot);
    }
    this.arm();
  }

  private start(entry: Entry, due: number): void {
    entry.running = true;
    const startedAt = this.deps.clock.now();
    this.deps.onStart?.(startedAt - due);
    const id = entry.monitor.id;
    const done = this.execute(entry, due, startedAt).finally(() => {
      this.inFlight.delete(done);
      if (this.runningChecks.get(id) === done) this.runningChecks.delete(id);
      this.drainWaiting();
    });
    this.inFlight.add(done);
    this.runningChecks.set(id, done);
  }

  private drainWaiting(): void {
    while (this.waiting.length > 0 && this.inFlight.size < this.deps.concurrency && !this.stopped) {
      const slot = this.waiting.shift()!;
      const entry = this.entries.get(slot.id);
      if (!entry || entry.gen !== slot.gen || entry.running) continue;
      if (!this.mayAct(slot.id)) continue;
      this.start(entry, slot.due);
    }
  }

  private async execute(entry: Entry, due: number, startedAt: number): Promise<void> {
    const monitor = entry.monitor;
    const round = entry.round;
    // A push monitor's check is only due when nothing arrived in time; until then, wait.
    const notBefore = this.deps.notBefore?.(monitor) ?? null;
    if (notBefore !== null && notBefore > startedAt) {
      entry.running = false;
      if (this.entries.get(monitor.id) === entry && !this.stopped) {
        this.reschedule(entry, this.slotAt(monitor, notBefore));
        this.arm();
      }
      return;
    }
    let run: CheckRun;
    try {
      run = await this.deps.run(monitor, this.abort.signal);
    } catch (err) {
      this.deps.logger.error({ err, monitorId: monitor.id }, 'check crashed');
      entry.running = false;
      if (this.entries.get(monitor.id) === entry)
        this.reschedule(
          entry,
          nextSlot(monitor.id, monitor.interval * 1000, round, this.deps.clock.now()),
        );
      this.arm();
      return;
    }
    entry.running = false;
    if (this.abort.signal.aborted) return;
    // The lease went while the check ran: the partition's new owner checks this round.
    if (!this.mayAct(monitor.id)) {
      this.deps.onUnowned?.(monitor.id);
      return;
    }
    const current = this.entries.get(monitor.id);
    const endedAt = this.deps.clock.now();
    const stalledMs = this.deps.stalls?.stalledWithin(startedAt, endedAt) ?? 0;
    const verdict = overloadVerdict(run, endedAt - startedAt, stalledMs, entry.discarded);
    if (verdict !== null) {
      // Not the target's failure: nothing is recorded and the check runs again soon.
      entry.discarded += 1;
      this.deps.onDiscard?.(verdict, monitor.id);
      if (current === entry && !this.stopped) {
        // The same round again: nothing was recorded for it.
        const retryAt = endedAt + Math.min(OVERLOAD_RETRY_MS, monitor.interval * 1000);
        this.reschedule(current, { round, due: retryAt });
        this.arm();
      }
      return;
    }
    entry.discarded = 0;
    // The monitor was edited while this check ran: its result still counts, against the new definition.
    const latest = current?.monitor ?? monitor;
    if (this.deps.recordLocation && decidedByQuorum(latest)) {
      this.recordAsLocation(current === entry ? entry : null, latest, run, startedAt, round);
      return;
    }
    const key = keyAfter(entry.last, monitor.id, latest.interval * 1000, round);
    entry.last = key;
    const { write, transition } = applyResult(latest, run, startedAt, key, {
      // Decided by when the check started: a window that ends mid-check still covers it.
      maintenance: this.deps.inMaintenance?.(monitor.id, startedAt) ?? false,
      failureDetails: true,
    });
    this.deps.record(write);
    if (current === entry && !this.stopped) {
      const now = this.deps.clock.now();
      const i = latest.interval * 1000;
      // Retries and the confirming re-check stay in this round unless they fall in a later one.
      this.reschedule(
        current,
        transition.nextCheck === 'confirm'
          ? this.slotAt(latest, now + CONFIRM_DELAY_MS, round)
          : transition.nextCheck === 'retry'
            ? this.slotAt(latest, Math.max(due + retryDelay(latest), now), round)
            : nextSlot(monitor.id, i, round, now),
      );
      this.arm();
    }
  }

  /**
   * A monitor checked from several locations (ADR 58): this check is location `local`'s verdict
   * of its round, recorded and decided with the others' by the quorum; the rounds confirm a
   * DOWN, so the next check is the next round's.
   */
  private recordAsLocation(
    entry: Entry | null,
    m: MonitorRecord,
    run: CheckRun,
    startedAt: number,
    round: number,
  ): void {
    const i = m.interval * 1000;
    this.deps.recordLocation!(m, run, startedAt, dueOf(m.id, i, round));
    if (!entry || this.stopped) return;
    this.reschedule(entry, nextSlot(m.id, i, round, this.deps.clock.now()));
    this.arm();
  }
}

/** A DOWN is confirmed by a re-check this soon after the failure that would make it down. */
export const CONFIRM_DELAY_MS = 1000;
/** A check whose result was thrown away (Pagewatch overloaded) runs again after at most this. */
const OVERLOAD_RETRY_MS = 5000;

function retryDelay(m: MonitorRecord): number {
  return (m.retryInterval ?? m.interval) * 1000;
}
