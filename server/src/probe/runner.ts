import type { ProbeMonitor, ProbeResultItem } from '@pagewatch/contract';
import { checkTypes, type EngineOptions } from '../engine/checks/registry.js';
import type { CheckRun } from '../domain/check-run.js';
import type { MonitorRecord } from '../domain/monitor.js';
import { dueOf, roundAt } from '../domain/schedule.js';
import type { ProbeClock } from './clock.js';

interface Entry {
  monitor: ProbeMonitor;
  record: MonitorRecord;
  timer: NodeJS.Timeout | null;
  /** The last round this probe started. */
  lastRound: number | null;
}

/** Lateness samples kept for the p99 (about a minute of a busy probe). */
const LATENESS_KEEP = 60_000;

/** Stored credentials arrive opened: the opener the checks call is the identity. */
const opened = (text: string) => text;

/**
 * Runs the assignment on the server's round grid (domain/schedule): round r of a monitor is
 * due at phase + r × interval on the server's clock, so a probe and the server name the same
 * round whatever the probe's own clock says. Only the current round ever runs: a probe that
 * was frozen or asleep does not run a backlog.
 */
export class ProbeRunner {
  private readonly entries = new Map<number, Entry>();
  private inFlight = 0;
  private lateness: number[] = [];
  private latenessAt = 0;
  private stopped = false;

  constructor(
    private readonly clock: ProbeClock,
    private readonly report: (item: ProbeResultItem) => void,
    private readonly options: EngineOptions,
    private readonly slots = 4096,
  ) {}

  /** Replaces the assignment (a snapshot): what is not in it stops. */
  replace(monitors: readonly ProbeMonitor[]): void {
    const keep = new Set(monitors.map((m) => m.id));
    for (const id of [...this.entries.keys()]) if (!keep.has(id)) this.remove(id);
    for (const m of monitors) this.upsert(m);
  }

  upsert(monitor: ProbeMonitor): void {
    const had = this.entries.get(monitor.id);
    if (had && had.monitor.updatedAt === monitor.updatedAt) return;
    if (had?.timer) clearTimeout(had.timer);
    const record = {
      ...monitor.definition,
      state: { status: 'pending', failures: 0 },
      recent: [],
      lastCheck: null,
    } as unknown as MonitorRecord;
    // An edit runs at once, even in a round already run here (the server keeps the round's first).
    const entry: Entry = { monitor, record, timer: null, lastRound: null };
    this.entries.set(monitor.id, entry);
    // A new or edited monitor runs its current round at once unless it already ran it here.
    this.plan(entry, true);
  }

  remove(id: number): void {
    const e = this.entries.get(id);
    if (e?.timer) clearTimeout(e.timer);
    this.entries.delete(id);
  }

  stop(): void {
    this.stopped = true;
    for (const e of this.entries.values()) if (e.timer) clearTimeout(e.timer);
    this.entries.clear();
  }

  size(): number {
    return this.entries.size;
  }

  /** Checks in flight per slot. */
  load(): number {
    return this.inFlight / this.slots;
  }

  /** p99 of start lateness (ms) over the samples of the last minute; null without any. */
  latenessP99(): number | null {
    if (this.lateness.length === 0) return null;
    const sorted = [...this.lateness].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!);
  }

  private plan(entry: Entry, now: boolean): void {
    if (this.stopped) return;
    const id = entry.monitor.id;
    const interval = entry.monitor.intervalS * 1000;
    const t = this.clock.now();
    const current = roundAt(id, interval, t);
    const round = now && entry.lastRound !== current ? current : current + 1;
    const due = dueOf(id, interval, round);
    const wait = round === current ? 0 : Math.max(0, due - t);
    entry.timer = setTimeout(() => this.start(entry, round, due, round === current), wait);
  }

  private start(entry: Entry, round: number, due: number, immediate: boolean): void {
    entry.timer = null;
    if (this.stopped || this.entries.get(entry.monitor.id) !== entry) return;
    const interval = entry.monitor.intervalS * 1000;
    const startedAt = this.clock.now();
    // Woken long after its slot (a frozen process): this round is gone, take the current one.
    const current = roundAt(entry.monitor.id, interval, startedAt);
    if (current > round) {
      round = current;
      due = dueOf(entry.monitor.id, interval, round);
    }
    if (entry.lastRound === round) return this.plan(entry, false);
    entry.lastRound = round;
    // A catch-up run of a new or edited monitor is not late: its slot passed before it came.
    if (!immediate && round === current) this.sample(Math.max(0, startedAt - due), startedAt);
    this.plan(entry, false);
    if (this.inFlight >= this.slots) return;
    this.inFlight += 1;
    void this.run(entry.record, startedAt).then((result) => {
      this.inFlight -= 1;
      if (this.stopped) return;
      this.report({
        monitorId: entry.monitor.id,
        roundAt: new Date(due).toISOString(),
        startedAt: new Date(startedAt).toISOString(),
        result: toWire(result),
      });
    });
  }

  private async run(record: MonitorRecord, startedAt: number): Promise<CheckRun> {
    const type = checkTypes[record.type];
    // A backstop past the check's own timeout, so a stuck check never holds a slot.
    const signal = AbortSignal.timeout(record.timeout * 1000 + 5000);
    try {
      return await type.run(
        record,
        { signal, now: startedAt },
        { ...this.options, openSecret: opened },
      );
    } catch (err) {
      return {
        outcome: 'down',
        latencyMs: null,
        phases: { dns: null, connect: null, tls: null, ttfb: null, download: null },
        httpStatus: null,
        errorCode: 'internal_error',
        errorMessage: `The probe could not run this check: ${(err as Error).message}`,
        responseSize: null,
        certExpiresAt: null,
      };
    }
  }

  private sample(ms: number, now: number): void {
    if (now - this.latenessAt > LATENESS_KEEP) {
      this.lateness = [];
      this.latenessAt = now;
    }
    if (this.lateness.length < 100_000) this.lateness.push(ms);
  }
}

function toWire(run: CheckRun): ProbeResultItem['result'] {
  const { browser, ...rest } = run;
  return {
    ...rest,
    ...(browser
      ? {
          browser: {
            measurements: browser.measurements,
            screenshotBase64: browser.screenshot
              ? Buffer.from(browser.screenshot).toString('base64')
              : null,
          },
        }
      : {}),
  };
}
