import { PushMonitorInput, type MonitorDraft } from '@pagewatch/contract';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pingRun } from '../../src/domain/heartbeat.js';
import { splitInput, type MonitorRecord } from '../../src/domain/monitor.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { checkTypes } from '../../src/engine/checks/registry.js';
import { dueOf, roundAt } from '../../src/domain/schedule.js';
import { Scheduler } from '../../src/engine/scheduler.js';
import { systemClock } from '../../src/lib/clock.js';

const T0 = Date.UTC(2026, 0, 1);
const S = 1000;
const MIN = 60 * S;

function pushRecord(
  id: number,
  draft: Partial<Extract<MonitorDraft, { type: 'push' }>> = {},
  overrides: Partial<MonitorRecord> = {},
): MonitorRecord {
  const input = PushMonitorInput.parse({ type: 'push', name: `Job ${id}`, ...draft });
  const { common, settings } = splitInput(input);
  return {
    id,
    ...common,
    settings,
    state: { status: 'pending', failures: 0 },
    statusChangedAt: null,
    lastCheck: null,
    recent: [],
    createdAt: T0,
    updatedAt: T0,
    pushToken: 'A'.repeat(32),
    lastPingAt: null,
    ...overrides,
  };
}

const up = () => pingRun({ status: 'up', message: null, durationMs: null }, null);

/**
 * Push monitors in the real scheduler with the real push check type, on a fake clock: the
 * scheduled check is the deadline, and it records a miss only when no ping came in time.
 */
describe('scheduler with push monitors', () => {
  let writes: ResultWrite[];
  let scheduler: Scheduler;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    writes = [];
    scheduler = new Scheduler({
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      concurrency: 10,
      run: (m, signal) => checkTypes[m.type].run(m, { signal, now: Date.now() }, {}),
      notBefore: (m) => checkTypes[m.type].notBefore?.(m) ?? null,
      record: (w) => writes.push(w),
    });
  });
  afterEach(async () => {
    await scheduler.stop();
    vi.useRealTimers();
  });

  const at = (w: ResultWrite) => w.at - T0;
  const summary = (w: ResultWrite) => [at(w), w.run.outcome, w.run.errorCode, w.status];

  it('records nothing before interval + grace, then a miss with how long it has been quiet', async () => {
    scheduler.upsert(pushRecord(1, { interval: 300, graceSeconds: 60, retries: 0 }));
    await vi.advanceTimersByTimeAsync(6 * MIN - 1);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes.map(summary)).toEqual([[6 * MIN, 'down', 'heartbeat_missed', 'down']]);
    expect(writes[0]!.run.errorMessage).toBe(
      'No ping received yet in 6 min; expected every 5 min + 1 min grace',
    );
  });

  it('stays up while pings come in time; once they stop, confirms the miss like any failure', async () => {
    scheduler.upsert(
      pushRecord(1, { interval: 300, graceSeconds: 60, retries: 2, retryInterval: 30 }),
    );
    // A ping every 5 min 50 s: late by the interval, in time by the grace.
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(5 * MIN + 50 * S);
      expect(scheduler.pushResult(1, up(), Date.now())).toBe(true);
    }
    const lastPing = Date.now() - T0;
    expect(writes.map((w) => w.run.outcome)).toEqual(['up', 'up', 'up', 'up', 'up']);
    expect(writes[0]!.flip).toEqual({ from: 'pending', to: 'up' });

    await vi.advanceTimersByTimeAsync(6 * MIN + 31 * S + 5 * MIN);
    const missAt = lastPing + 6 * MIN;
    // Once down, a miss per interval, on the monitor's rounds.
    const nextMiss = dueOf(1, 5 * MIN, roundAt(1, 5 * MIN, T0 + missAt + 31 * S) + 1) - T0;
    expect(writes.slice(5).map(summary)).toEqual([
      // First miss: retries remain, the monitor stays up; the next after the retry interval.
      [missAt, 'down', 'heartbeat_missed', 'up'],
      // The last retry is the scheduler's immediate confirmation (ADR 8), then a miss per interval.
      [missAt + 30 * S, 'down', 'heartbeat_missed', 'up'],
      [missAt + 31 * S, 'down', 'heartbeat_missed', 'down'],
      [nextMiss, 'down', 'heartbeat_missed', 'down'],
    ]);
    expect(writes[5]!.run.errorMessage).toBe(
      'No ping for 6 min; expected every 5 min + 1 min grace',
    );
    expect(writes[8]!.run.errorMessage).toMatch(
      /^No ping for \d+ min( \d+ s)?; expected every 5 min \+ 1 min grace$/,
    );
    expect(writes[7]!.flip).toEqual({ from: 'up', to: 'down' });

    // One ping brings it back, and the deadline counts from it.
    expect(scheduler.pushResult(1, up(), Date.now())).toBe(true);
    expect(writes.at(-1)!.flip).toEqual({ from: 'down', to: 'up' });
    const before = writes.length;
    await vi.advanceTimersByTimeAsync(6 * MIN - 1);
    expect(writes).toHaveLength(before);
  });

  it('puts the deadline off when an edit or "check now" fires the check early', async () => {
    scheduler.upsert(pushRecord(1, { interval: 60, graceSeconds: 0, retries: 0 }));
    await vi.advanceTimersByTimeAsync(30 * S);
    scheduler.pushResult(1, up(), Date.now());
    await vi.advanceTimersByTimeAsync(20 * S);
    expect(scheduler.checkNow(1)).toBe(true);
    await vi.advanceTimersByTimeAsync(S);
    expect(writes.map((w) => w.run.outcome)).toEqual(['up']);
    // The deadline is still a minute after the ping.
    await vi.advanceTimersByTimeAsync(39 * S);
    expect(writes.map((w) => w.run.errorCode)).toEqual([null, 'heartbeat_missed']);
    expect(at(writes[1]!)).toBe(90 * S);
  });

  it('after a restart, counts the deadline from the last ping on record, not from the start', async () => {
    // Last ping 4 min before the restart: the miss is due 2 min after it, not 6.
    const lastPing = T0 - 4 * MIN;
    const ping = { at: lastPing, outcome: 'up' as const, latencyMs: null, httpStatus: null };
    scheduler.load([
      pushRecord(
        1,
        { interval: 300, graceSeconds: 60, retries: 0 },
        {
          createdAt: T0 - 60 * MIN,
          updatedAt: T0 - 60 * MIN,
          state: { status: 'up', failures: 0 },
          lastCheck: { ...ping, errorCode: null, errorMessage: null },
          lastPingAt: lastPing,
        },
      ),
      // This one's last ping is long gone: its miss comes within the start-up spread.
      pushRecord(
        2,
        { interval: 300, graceSeconds: 60, retries: 0 },
        {
          createdAt: T0 - 60 * MIN,
          updatedAt: T0 - 60 * MIN,
          state: { status: 'up', failures: 0 },
          lastCheck: { ...ping, at: T0 - 30 * MIN, errorCode: null, errorMessage: null },
          lastPingAt: T0 - 30 * MIN,
        },
      ),
    ]);
    await vi.advanceTimersByTimeAsync(MIN);
    expect(writes.map((w) => [w.monitorId, w.run.errorCode])).toEqual([[2, 'heartbeat_missed']]);
    expect(writes[0]!.run.errorMessage).toMatch(/^No ping for 30 min/);
    await vi.advanceTimersByTimeAsync(MIN - 1);
    expect(writes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes.map((w) => [w.monitorId, at(w)])).toEqual([
      [2, writes[0]!.at - T0],
      [1, 2 * MIN],
    ]);
  });

  it('takes no pushed result for a monitor it does not schedule', () => {
    expect(scheduler.pushResult(99, up(), Date.now())).toBe(false);
    scheduler.upsert(pushRecord(1, { paused: true }));
    expect(scheduler.pushResult(1, up(), Date.now())).toBe(false);
  });
});
