import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckRun } from '../../src/domain/check-run.js';
import { splitInput, type MonitorRecord } from '../../src/domain/monitor.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { dueOf, roundAt } from '../../src/domain/schedule.js';
import { Scheduler } from '../../src/engine/scheduler.js';
import { systemClock } from '../../src/lib/clock.js';
import { checkRun, monitorInput } from '../support/factories.js';

const T0 = Date.UTC(2026, 0, 1);
const I = 60_000;

function record(id: number, overrides: Partial<MonitorRecord> = {}): MonitorRecord {
  const { common, settings } = splitInput(monitorInput({ interval: 60, timeout: 5 }));
  return {
    id,
    ...common,
    settings,
    state: { status: 'up', failures: 0 },
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

/** How the scheduler numbers its checks: rounds, extra checks and restarts. */
describe('scheduler rounds', () => {
  let writes: ResultWrite[];
  let scheduler: Scheduler;
  const key = (w: ResultWrite) => [w.round!.round, w.round!.attempt];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    writes = [];
    scheduler = new Scheduler({
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      concurrency: 10,
      run: async (): Promise<CheckRun> => checkRun(),
      record: (w) => writes.push(w),
    });
  });
  afterEach(async () => {
    await scheduler.stop();
    vi.useRealTimers();
  });

  it('check-now is a further attempt of the current round and skips no planned round', async () => {
    scheduler.upsert(record(1));
    const r0 = roundAt(1, I, T0);
    await vi.advanceTimersByTimeAsync(dueOf(1, I, r0 + 1) - T0 + 10);
    scheduler.checkNow(1);
    await vi.advanceTimersByTimeAsync(10);
    scheduler.checkNow(1);
    await vi.advanceTimersByTimeAsync(dueOf(1, I, r0 + 2) - Date.now());
    expect(writes.map(key)).toEqual([
      [r0, 0],
      [r0 + 1, 0],
      [r0 + 1, 1],
      [r0 + 1, 2],
      [r0 + 2, 0],
    ]);
    expect(writes.at(-1)!.at).toBe(dueOf(1, I, r0 + 2));
  });

  it('after a restart, a round already recorded is not run again; the next round is', async () => {
    const r0 = roundAt(1, I, T0);
    const last = { round: r0, roundDue: dueOf(1, I, r0), attempt: 0 };
    scheduler.load([record(1, { lastRound: last })]);
    await vi.advanceTimersByTimeAsync(dueOf(1, I, r0 + 1) - T0);
    expect(writes.map(key)).toEqual([[r0 + 1, 0]]);
    expect(writes[0]!.at).toBe(dueOf(1, I, r0 + 1));
  });

  it('after a restart, a current round without a result runs once; rounds before it are not replayed', async () => {
    const r0 = roundAt(2, I, T0);
    const old = { round: r0 - 30, roundDue: dueOf(2, I, r0 - 30), attempt: 0 };
    scheduler.load([record(2, { lastRound: old })]);
    await vi.advanceTimersByTimeAsync(dueOf(2, I, r0 + 1) - T0);
    const rounds = writes.map((w) => w.round!.round);
    expect(rounds[0]).toBeGreaterThanOrEqual(r0);
    expect(new Set(rounds).size).toBe(rounds.length);
    expect(rounds.at(-1)).toBe(r0 + 1);
  });
});
