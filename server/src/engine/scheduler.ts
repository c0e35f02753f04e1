import { setMaxListeners } from 'node:events';
import type { CheckRun } from '../domain/check-run.js';
import { applyOutcome } from '../domain/monitor-state.js';
import { overloadVerdict, type OverloadVerdict } from '../domain/overload.js';
import { pushRecent, type MonitorRecord } from '../domain/monitor.js';
import {
  BurstSpreader,
  dueOf,
  keyAfter,
  nextSlot,
  resumeSlot,
  roundAt,
  type RoundKey,
  type Slot as Planned,
} from '../domain/schedule.js';
import type { ResultWrite } from '../db/repositories/results.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { MinHeap } from '../lib/min-heap.js';

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

export interface SchedulerDeps {
  run(monitor: MonitorRecord, signal: AbortSignal): Promise<CheckRun>;
  record(write: ResultWrite): void;
  clock: Clock;
  logger: Logger;
  concurrency: number;
  /** Called with how late each check started, in ms. */
  onStart?: (latenessMs: number) => void;
  /** How long this process was stalled (event loop blocked, CPU starved) within a span. */
  stalls?: { stalledWithin(from: number, to: number): number };
  /** Called when a result is thrown away because Pagewatch itself was overloaded. */
  onDiscard?: (reason: Exclude<OverloadVerdict, null>, monitorId: number) => void;
  /** The earliest a monitor's check may run (types whose results arrive by push); null: as planned. */
  notBefore?: (monitor: MonitorRecord) => number | null;
  /** Whether the monitor is in an active maintenance window at this instant. */
  inMaintenance?: (monitorId: number, at: number) => boolean;
}

/**
 * Runs each active monitor at its interval from one timer over a min-heap of due
 * times. State transitions happen here, in memory, so a result's status is known
 * the moment the check ends; the writer persists both together.
 */
export class Scheduler {
  private readonly entries = new Map<number, Entry>();
  private readonly heap = new MinHeap<Slot>((s) => s.due);
  private readonly waiting: Slot[] = [];
  private readonly inFlight = new Set<Promise<void>>();
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

  /** A new or changed monitor: checked right away (unless it comes in a burst), then on its interval. */
  upsert(monitor: MonitorRecord): void {
    if (this.stopped) return;
    if (monitor.paused) return this.remove(monitor.id);
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
    if (!entry || this.stopped) return false;
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
    if (!entry || this.stopped) return false;
    const m = entry.monitor;
    const transition = applyOutcome(m.state, run.outcome, m.retries);
    m.state = transition.next;
    m.recent = pushRecent(m.recent, [run.outcome, run.latencyMs]);
    m.lastCheck = {
      at,
      outcome: run.outcome,
      latencyMs: run.latencyMs,
      httpStatus: run.httpStatus,
      errorCode: run.errorCode,
      errorMessage: run.errorMessage,
    };
    m.lastPingAt = at;
    // A ping is a further attempt of the round it arrived in: every ping counts, none twice.
    const round = keyAfter(entry.last, id, m.interval * 1000, roundAt(id, m.interval * 1000, at));
    entry.last = round;
    this.deps.record({
      round,
      monitorId: id,
      at,
      run,
      status: transition.next.status,
      failures: transition.next.failures,
      recent: m.recent,
      flip: transition.flip,
      maintenance: this.deps.inMaintenance?.(id, at) ?? false,
    });
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
    this.waiting.length = 0;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Aborts in-flight checks at once (second signal, or a deadline passed). */
  abortInFlight(): void {
    this.abort.abort();
  }

  private put(monitor: MonitorRecord, { round, due }: Planned): void {
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
      if (this.inFlight.size < this.deps.concurrency) this.start(entry, slot.due);
      else this.waiting.push(slot);
    }
    this.arm();
  }

  private start(entry: Entry, due: number): void {
    entry.running = true;
    const startedAt = this.deps.clock.now();
    this.deps.onStart?.(startedAt - due);
    const done = this.execute(entry, due, startedAt).finally(() => {
      this.inFlight.delete(done);
      this.drainWaiting();
    });
    this.inFlight.add(done);
  }

  private drainWaiting(): void {
    while (this.waiting.length > 0 && this.inFlight.size < this.deps.concurrency && !this.stopped) {
      const slot = this.waiting.shift()!;
      const entry = this.entries.get(slot.id);
      if (entry && entry.gen === slot.gen && !entry.running) this.start(entry, slot.due);
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
    const transition = applyOutcome(latest.state, run.outcome, latest.retries, {
      at: startedAt,
      code: run.errorCode,
      message: run.errorMessage,
    });
    latest.state = transition.next;
    latest.recent = pushRecent(latest.recent, [run.outcome, run.latencyMs]);
    const key = keyAfter(entry.last, monitor.id, latest.interval * 1000, round);
    entry.last = key;
    latest.lastCheck = {
      at: startedAt,
      outcome: run.outcome,
      latencyMs: run.latencyMs,
      httpStatus: run.httpStatus,
      errorCode: run.errorCode,
      errorMessage: run.errorMessage,
    };
    this.deps.record({
      round: key,
      monitorId: monitor.id,
      at: startedAt,
      run,
      status: transition.next.status,
      failures: transition.next.failures,
      recent: latest.recent,
      flip: transition.flip,
      firstFailure: transition.next.firstFailure ?? null,
      // Decided by when the check started: a window that ends mid-check still covers it.
      maintenance: this.deps.inMaintenance?.(monitor.id, startedAt) ?? false,
    });
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
}

/** A DOWN is confirmed by a re-check this soon after the failure that would make it down. */
export const CONFIRM_DELAY_MS = 1000;
/** A check whose result was thrown away (Pagewatch overloaded) runs again after at most this. */
const OVERLOAD_RETRY_MS = 5000;

function retryDelay(m: MonitorRecord): number {
  return (m.retryInterval ?? m.interval) * 1000;
}
