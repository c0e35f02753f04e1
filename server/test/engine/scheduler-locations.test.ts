import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckRun } from '../../src/domain/check-run.js';
import { splitInput, type MonitorRecord } from '../../src/domain/monitor.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { dueOf, roundAt } from '../../src/domain/schedule.js';
import { Scheduler } from '../../src/engine/scheduler.js';
import { systemClock } from '../../src/lib/clock.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

function record(id: number, locations: string[] | null): MonitorRecord {
  const { common, settings } = splitInput(monitorInput({ interval: 10, timeout: 5, retries: 2 }));
  return {
    id,
    ...common,
    settings,
    state: { status: 'pending', failures: 0 },
    statusChangedAt: null,
    lastCheck: null,
    recent: [],
    createdAt: 0,
    updatedAt: 0,
    locations,
  };
}

/**
 * The built-in scheduler as location `local` (ADR 58): a monitor of one location is decided
 * here as before; one of several hands each check to the quorum as its round's local verdict;
 * one checked only elsewhere is not checked here at all.
 */
describe('scheduler with locations', () => {
  const T0 = Date.UTC(2026, 0, 1);
  let writes: ResultWrite[];
  let located: { id: number; outcome: string; roundDue: number }[];
  let scheduler: Scheduler;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    writes = [];
    located = [];
    scheduler = new Scheduler({
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      concurrency: 10,
      run: async (m): Promise<CheckRun> => (m.id === 2 ? downRun() : checkRun()),
      record: (w) => writes.push(w),
      recordLocation: (m, run, _startedAt, roundDue) =>
        located.push({ id: m.id, outcome: run.outcome, roundDue }),
    });
  });
  afterEach(async () => {
    await scheduler.stop();
    vi.useRealTimers();
  });

  it('routes by the monitor’s locations, one check a round however it fails', async () => {
    scheduler.load([
      record(1, null),
      record(2, ['eu', 'local']),
      record(3, ['eu']),
      record(4, ['local']),
    ]);
    expect(scheduler.has(3)).toBe(false);
    await vi.advanceTimersByTimeAsync(35_000);
    expect(new Set(writes.map((w) => w.monitorId))).toEqual(new Set([1, 4]));
    // Monitor 2 fails every check: with retries it would re-check at once; here the quorum
    // confirms over rounds, so there is exactly one check per round, each on its round's due.
    const twos = located.filter((l) => l.id === 2);
    expect(twos.length).toBeGreaterThanOrEqual(3);
    expect(twos.every((l) => l.outcome === 'down')).toBe(true);
    const rounds = twos.map((l) => roundAt(2, 10_000, l.roundDue));
    expect(new Set(rounds).size).toBe(rounds.length);
    for (const l of twos) expect(dueOf(2, 10_000, roundAt(2, 10_000, l.roundDue))).toBe(l.roundDue);
    expect(located.some((l) => l.id !== 2)).toBe(false);
  });

  it('stops checking a monitor moved to remote locations only', async () => {
    scheduler.load([record(5, null)]);
    expect(scheduler.has(5)).toBe(true);
    scheduler.upsert(record(5, ['us']));
    expect(scheduler.has(5)).toBe(false);
  });
});
