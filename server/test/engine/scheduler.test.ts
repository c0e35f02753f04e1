import type { CheckOutcome } from '@pagewatch/contract';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckRun } from '../../src/domain/check-run.js';
import { splitInput, type MonitorRecord } from '../../src/domain/monitor.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { dueOf, roundAt } from '../../src/domain/schedule.js';
import { Scheduler } from '../../src/engine/scheduler.js';
import { systemClock } from '../../src/lib/clock.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

/** The first round of monitor `id` due after `t` (ms since T0 in, out), on its epoch grid. */
function nextRound(id: number, intervalS: number, t0: number, t: number): number {
  const i = intervalS * 1000;
  return dueOf(id, i, roundAt(id, i, t0 + t) + 1) - t0;
}

function record(id: number, overrides: Partial<MonitorRecord> = {}): MonitorRecord {
  const { common, settings } = splitInput(monitorInput({ interval: 10, timeout: 5 }));
  return {
    id,
    ...common,
    settings,
    state: { status: 'pending', failures: 0 },
    statusChangedAt: null,
    lastCheck: null,
    recent: [],
    secret: null,
    lastDetails: null,
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

/**
 * The scheduler's timing and state handling, with the check itself replaced by a scripted
 * outcome: what is under test here is when checks run and what their results lead to.
 */
describe('scheduler', () => {
  let writes: ResultWrite[];
  let starts: { id: number; at: number }[];
  let lateness: number[];
  let outcomes: Map<number, CheckOutcome[]>;
  let scheduler: Scheduler;
  const T0 = Date.UTC(2026, 0, 1);

  function make(concurrency = 100, duration = 0) {
    return new Scheduler({
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      concurrency,
      run: async (m): Promise<CheckRun> => {
        starts.push({ id: m.id, at: Date.now() });
        if (duration) await new Promise((r) => setTimeout(r, duration));
        const o = outcomes.get(m.id)?.shift() ?? 'up';
        return o === 'down' ? downRun() : checkRun({ outcome: o });
      },
      record: (w) => writes.push(w),
      onStart: (ms) => lateness.push(ms),
    });
  }

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    writes = [];
    starts = [];
    lateness = [];
    outcomes = new Map();
    scheduler = make();
  });
  afterEach(async () => {
    // Checks still sleeping on the fake clock must be let finish for stop() to resolve.
    const stopped = scheduler.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    await stopped;
    vi.useRealTimers();
  });

  it('spreads 1,000 never-checked monitors over their first interval instead of firing together', async () => {
    scheduler.load(Array.from({ length: 1000 }, (_, i) => record(i + 1)));
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts.length).toBeGreaterThan(40);
    expect(starts.length).toBeLessThan(200);
    await vi.advanceTimersByTimeAsync(9000);
    expect(starts.length).toBe(1000);
    expect(Math.max(...lateness)).toBeLessThanOrEqual(1);
  });

  it('checks a monitor created by hand at once', async () => {
    scheduler.upsert(record(1, { interval: 60 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([{ id: 1, at: T0 }]);
  });

  it('spreads 1,000 monitors created at once over their interval, on every round, not just the first', async () => {
    for (let id = 1; id <= 1000; id++) scheduler.upsert(record(id, { interval: 10 }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts.length).toBeLessThan(200);
    await vi.advanceTimersByTimeAsync(9999);
    expect(new Set(starts.map((s) => s.id)).size).toBe(1000);
    // Second round: same spread, so no second of the interval carries more than twice its share.
    await vi.advanceTimersByTimeAsync(10_000);
    const perSecond = new Array<number>(10).fill(0);
    for (const s of starts.filter((x) => x.at >= T0 + 10_000 && x.at < T0 + 20_000)) {
      perSecond[Math.floor((s.at - T0 - 10_000) / 1000)]! += 1;
    }
    expect(perSecond.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(200);
  });

  it('runs each monitor at its interval without drifting, on its rounds after the first check', async () => {
    scheduler.upsert(record(1, { interval: 10 }));
    await vi.advanceTimersByTimeAsync(60_000);
    const first = nextRound(1, 10, T0, 0);
    expect(starts.map((s) => s.at - T0)).toEqual([
      0,
      ...Array.from({ length: 6 }, (_, k) => first + k * 10_000).filter((t) => t <= 60_000),
    ]);
    // Each result carries its round: the first check is an extra one in the current round.
    const r0 = roundAt(1, 10_000, T0);
    expect(writes.map((w) => [w.round!.round, w.round!.attempt])).toEqual(
      writes.map((_, k) => [r0 + k, 0]),
    );
  });

  it('spaces retries by the retry interval and confirms a DOWN with an immediate re-check', async () => {
    outcomes.set(1, ['up', 'down', 'down', 'down', 'down']);
    scheduler.upsert(record(1, { interval: 60, retries: 2, retryInterval: 10 }));
    const d1 = nextRound(1, 60, T0, 0);
    await vi.advanceTimersByTimeAsync(d1 + 60_000);
    // up; first failure; a retry 10 s later; the confirming re-check 1 s after that; next round.
    expect(starts.map((s) => s.at - T0)).toEqual([0, d1, d1 + 10_000, d1 + 11_000, d1 + 60_000]);
    // Retries and the re-check are further attempts of the failing round.
    expect(writes.map((w) => w.round!.attempt)).toEqual([0, 0, 1, 2, 0]);
    expect(new Set(writes.slice(1, 4).map((w) => w.round!.round)).size).toBe(1);
    expect(writes.map((w) => w.status)).toEqual(['up', 'up', 'up', 'down', 'down']);
    expect(writes.map((w) => w.flip && `${w.flip.from}->${w.flip.to}`)).toEqual([
      'pending->up',
      null,
      null,
      'up->down',
      null,
    ]);
  });

  it('a failure the immediate re-check does not see never becomes a DOWN', async () => {
    outcomes.set(1, ['up', 'down', 'up', 'up']);
    scheduler.upsert(record(1, { interval: 60, retries: 1 }));
    const d1 = nextRound(1, 60, T0, 0);
    await vi.advanceTimersByTimeAsync(d1 + 60_000);
    // The re-check does not move the plan: the next round is due where it always was.
    expect(starts.map((s) => s.at - T0)).toEqual([0, d1, d1 + 1_000, d1 + 60_000]);
    expect(writes.map((w) => w.status)).toEqual(['up', 'up', 'up', 'up']);
  });

  it('does not count a timeout that happened while Pagewatch itself was stalled', async () => {
    const discarded: string[] = [];
    await scheduler.stop();
    scheduler = new Scheduler({
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      concurrency: 10,
      run: async (): Promise<CheckRun> => {
        starts.push({ id: 1, at: Date.now() });
        await new Promise((r) => setTimeout(r, 5000));
        return downRun({ errorCode: 'timeout', errorMessage: 'No answer within 5 s' });
      },
      record: (w) => writes.push(w),
      // The whole of every check overlapped a stall of the process.
      stalls: { stalledWithin: (from, to) => to - from },
      onDiscard: (reason) => discarded.push(reason),
    });
    scheduler.upsert(record(1, { interval: 60, retries: 0 }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(writes).toHaveLength(0);
    expect(discarded).toEqual(['stalled']);
    // It runs again within seconds; after three thrown away in a row the failure counts.
    await vi.advanceTimersByTimeAsync(3 * 10_000);
    expect(discarded).toEqual(['stalled', 'stalled', 'stalled']);
    expect(writes.map((w) => w.run.errorCode)).toEqual(['timeout']);
  });

  it('carries the first failure of a streak (its time and error) into every write until recovery', async () => {
    outcomes.set(1, ['up', 'down', 'down', 'down', 'up']);
    scheduler.upsert(record(1, { interval: 60, retries: 2, retryInterval: 10 }));
    // Retry after 10 s, the confirming re-check 1 s later, then back to the interval.
    const d1 = nextRound(1, 60, T0, 0);
    await vi.advanceTimersByTimeAsync(d1 + 60_000);
    expect(writes.map((w) => w.status)).toEqual(['up', 'up', 'up', 'down', 'up']);
    const first = { at: T0 + d1, code: 'connect_refused', message: 'Connection refused' };
    expect(writes.map((w) => w.firstFailure ?? null)).toEqual([null, first, first, first, null]);
  });

  it('keeps the last 30 checks for the sparkline', async () => {
    scheduler.upsert(record(1, { interval: 10 }));
    await vi.advanceTimersByTimeAsync(400_000);
    expect(writes.at(-1)?.recent).toHaveLength(30);
  });

  it('check now runs at once and does not run twice while a check is in flight', async () => {
    scheduler = make(100, 3000);
    scheduler.upsert(record(1, { interval: 60 }));
    await vi.advanceTimersByTimeAsync(100);
    expect(scheduler.checkNow(1)).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(starts).toHaveLength(1);
    expect(scheduler.checkNow(1)).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(starts).toHaveLength(2);
    expect(scheduler.checkNow(99)).toBe(false);
  });

  it('stops checking paused and removed monitors', async () => {
    scheduler.upsert(record(1, { interval: 10 }));
    scheduler.upsert(record(2, { interval: 10 }));
    await vi.advanceTimersByTimeAsync(100);
    scheduler.upsert(record(1, { paused: true }));
    scheduler.remove(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(starts.map((s) => s.id)).toEqual([1, 2]);
  });

  it('bounds concurrency and measures the wait as lateness', async () => {
    scheduler = make(2, 1000);
    for (let id = 1; id <= 4; id++) scheduler.upsert(record(id, { interval: 60 }));
    await vi.advanceTimersByTimeAsync(10);
    expect(starts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts).toHaveLength(4);
    expect(lateness.slice(2).every((l) => l >= 1000)).toBe(true);
  });

  it('on stop, lets running checks finish and records them, then schedules nothing more', async () => {
    scheduler = make(100, 2000);
    scheduler.upsert(record(1, { interval: 10 }));
    await vi.advanceTimersByTimeAsync(10);
    const stopped = scheduler.stop();
    await vi.advanceTimersByTimeAsync(2000);
    await stopped;
    expect(writes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(starts).toHaveLength(1);
  });
});
