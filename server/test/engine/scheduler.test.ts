import type { CheckOutcome } from '@pagewatch/contract';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckRun } from '../../src/domain/check-run.js';
import { splitInput, type MonitorRecord } from '../../src/domain/monitor.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { Scheduler } from '../../src/engine/scheduler.js';
import { systemClock } from '../../src/lib/clock.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

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

  it('runs each monitor at its interval without drifting', async () => {
    scheduler.upsert(record(1, { interval: 10 }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(starts.map((s) => s.at - T0)).toEqual([
      0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000,
    ]);
  });

  it('spaces retries by the retry interval and confirms a DOWN with an immediate re-check', async () => {
    outcomes.set(1, ['up', 'down', 'down', 'down', 'down']);
    scheduler.upsert(record(1, { interval: 60, retries: 2, retryInterval: 10 }));
    await vi.advanceTimersByTimeAsync(60_000 + 10_000 + 1_000 + 60_000);
    // up; first failure; a retry 10 s later; the confirming re-check 1 s after that; interval.
    expect(starts.map((s) => s.at - T0)).toEqual([0, 60_000, 70_000, 71_000, 131_000]);
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
    await vi.advanceTimersByTimeAsync(60_000 + 1_000 + 60_000);
    // The interval counts from the re-check.
    expect(starts.map((s) => s.at - T0)).toEqual([0, 60_000, 61_000, 121_000]);
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
    await vi.advanceTimersByTimeAsync(60_000 + 10_000 + 1_000 + 60_000);
    expect(writes.map((w) => w.status)).toEqual(['up', 'up', 'up', 'down', 'up']);
    const first = { at: T0 + 60_000, code: 'connect_refused', message: 'Connection refused' };
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
