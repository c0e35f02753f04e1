import { HeartbeatSchedule, PushMonitorInput, type MonitorDraft } from '@pagewatch/contract';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { heartbeatDueAt, nextPingExpectedAt, pingRun } from '../../src/domain/heartbeat.js';
import { nextRunAfter } from '../../src/domain/heartbeat-schedule.js';
import { splitInput, type MonitorRecord } from '../../src/domain/monitor.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { checkTypes } from '../../src/engine/checks/registry.js';
import { Scheduler } from '../../src/engine/scheduler.js';
import { systemClock } from '../../src/lib/clock.js';

const utc = (iso: string) => Date.parse(iso);
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

function scheduled(kind: 'cron' | 'oncalendar', expression: string, timezone: string) {
  const parsed = HeartbeatSchedule.parse({ kind, expression, timezone });
  if (parsed.kind === 'interval') throw new Error('unreachable');
  return parsed;
}

/** The schedule's next run after `after`, as an ISO instant. */
const next = (s: ReturnType<typeof scheduled>, after: string) => iso(nextRunAfter(s, utc(after)));

describe('a daily 02:30 cron in Europe/Berlin', () => {
  const daily = scheduled('cron', '30 2 * * *', 'Europe/Berlin');

  it('is at 02:30 CET (01:30 UTC) the day before clocks spring forward', () => {
    expect(next(daily, '2026-03-27T12:00:00Z')).toBe('2026-03-28T01:30:00.000Z');
  });

  it('on the spring-forward day, when 02:30 does not exist, is due at 03:00 CEST, once', () => {
    expect(next(daily, '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
    expect(next(daily, '2026-03-29T01:00:00Z')).toBe('2026-03-30T00:30:00.000Z');
  });

  it('in the repeated autumn hour, is due at the first 02:30 only; a ping in the second does not make a run due', () => {
    // 25 October 2026: 03:00 CEST goes back to 02:00 CET, so 02:30 happens at 00:30 and 01:30 UTC.
    expect(next(daily, '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(next(daily, '2026-10-25T00:31:00Z')).toBe('2026-10-26T01:30:00.000Z');
    expect(next(daily, '2026-10-25T01:35:00Z')).toBe('2026-10-26T01:30:00.000Z');
  });
});

describe('an every-15-minutes cron in Europe/Berlin across the autumn change', () => {
  const quarter = scheduled('cron', '*/15 * * * *', 'Europe/Berlin');
  it('keeps expecting runs through the repeated hour, never one in the past', () => {
    // In the second 02:00–03:00 (01:00–02:00 UTC) the readings 02:15… already happened once.
    expect(next(quarter, '2026-10-25T00:50:00Z')).toBe('2026-10-25T02:00:00.000Z');
    expect(next(quarter, '2026-10-25T01:20:00Z')).toBe('2026-10-25T02:00:00.000Z');
    expect(next(quarter, '2026-10-25T02:00:00Z')).toBe('2026-10-25T02:15:00.000Z');
  });
});

describe('schedules in America/New_York', () => {
  const daily = scheduled('cron', '30 2 * * *', 'America/New_York');
  const early = scheduled('cron', '30 1 * * *', 'America/New_York');

  it('moves a run in the spring gap (8 March 2026, 02:00 → 03:00) to 03:00 EDT', () => {
    expect(next(daily, '2026-03-07T12:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
    expect(next(daily, '2026-03-08T07:00:00Z')).toBe('2026-03-09T06:30:00.000Z');
  });

  it('expects a 01:30 run once on 1 November 2026, at the first 01:30 (EDT)', () => {
    expect(next(early, '2026-10-31T12:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    expect(next(early, '2026-11-01T05:31:00Z')).toBe('2026-11-02T06:30:00.000Z');
    // 02:30 exists once that day, in EST.
    expect(next(daily, '2026-10-31T12:00:00Z')).toBe('2026-11-01T07:30:00.000Z');
  });

  it('reads OnCalendar weekdays and dates together, as systemd does', () => {
    const workdays = scheduled('oncalendar', 'Mon..Fri *-*-* 09:00', 'America/New_York');
    // Friday 6 March 10:00 EST → Monday 9 March 09:00 EDT, across the spring change.
    expect(next(workdays, '2026-03-06T15:00:00Z')).toBe('2026-03-09T13:00:00.000Z');
    // The first of the month only when it is a Monday (cron would take either).
    const firstMonday = scheduled('oncalendar', 'Mon *-*-01 06:00', 'America/New_York');
    expect(next(firstMonday, '2026-01-01T00:00:00Z')).toBe('2026-06-01T10:00:00.000Z');
    const cronEither = scheduled('cron', '0 6 1 * 1', 'America/New_York');
    expect(next(cronEither, '2026-01-01T00:00:00Z')).toBe('2026-01-01T11:00:00.000Z');
  });
});

describe('the schedule forms the API accepts', () => {
  const message = (kind: string, expression: string) => {
    const r = HeartbeatSchedule.safeParse({ kind, expression, timezone: 'Europe/Berlin' });
    return r.success ? null : r.error.issues[0]!.message;
  };
  it('takes cron with names and macros, OnCalendar shorthands, and says what is wrong otherwise', () => {
    expect(message('cron', '0 9 * * MON-FRI')).toBeNull();
    expect(message('cron', '@daily')).toBeNull();
    expect(message('oncalendar', 'weekly')).toBeNull();
    expect(message('oncalendar', '*-*-* *:00/15')).toBeNull();
    expect(message('cron', '0 25 * * *')).toBe('The hour 25 is outside 0–23');
    expect(message('cron', '0 9 * *')).toMatch(/^Use five fields/);
    expect(message('oncalendar', '2027-01-01 00:00')).toBe(
      'Years are not supported: write * for the year',
    );
    expect(message('oncalendar', '*-*-* 02:30:15')).toMatch(/^Seconds other than 00/);
    const zone = HeartbeatSchedule.safeParse({
      kind: 'cron',
      expression: '0 0 * * *',
      timezone: 'Mars/Olympus',
    });
    expect(zone.success).toBe(false);
  });
});

const T0 = utc('2026-03-27T12:00:00Z');

function cronPush(
  id: number,
  draft: Partial<Extract<MonitorDraft, { type: 'push' }>>,
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
  };
}

const berlinNightly = {
  interval: 3600,
  graceSeconds: 600,
  retries: 0,
  schedule: { kind: 'cron' as const, expression: '30 2 * * *', timezone: 'Europe/Berlin' },
};

describe('a cron push monitor: deadlines', () => {
  it('is due the grace period after the next run, counted from the last ping', () => {
    const m = cronPush(1, berlinNightly);
    expect(iso(heartbeatDueAt(m))).toBe('2026-03-28T01:40:00.000Z');
    const pinged = { ...m, lastPingAt: utc('2026-03-28T01:31:00Z') };
    expect(iso(heartbeatDueAt(pinged))).toBe('2026-03-29T01:10:00.000Z');
    expect(iso(nextPingExpectedAt(pinged, utc('2026-03-28T09:00:00Z')))).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    // Once the expected run is overdue past its grace, the page shows the next one.
    expect(iso(nextPingExpectedAt(pinged, utc('2026-03-29T02:00:00Z')))).toBe(
      '2026-03-30T00:30:00.000Z',
    );
  });
});

describe('a cron push monitor: an early ping', () => {
  it('counts for the run it is about when it comes up to half the grace period (at most a minute) early', () => {
    const m = cronPush(1, berlinNightly);
    // 02:29:20 CET on 28 March, 40 s before the 02:30 run: that run's ping.
    const early = { ...m, lastPingAt: utc('2026-03-28T01:29:20Z') };
    expect(iso(heartbeatDueAt(early))).toBe('2026-03-29T01:10:00.000Z');
    // Two minutes early is the previous run's (late) ping: 02:30 is still expected.
    const tooEarly = { ...m, lastPingAt: utc('2026-03-28T01:28:00Z') };
    expect(iso(heartbeatDueAt(tooEarly))).toBe('2026-03-28T01:40:00.000Z');
  });
});

describe('a cron push monitor in the real scheduler, on a fake clock across the Berlin spring change', () => {
  afterEach(() => vi.useRealTimers());

  it('takes the 03:00 ping of the spring-forward day in time, and misses only after run + grace', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    const writes: ResultWrite[] = [];
    const scheduler = new Scheduler({
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      concurrency: 10,
      run: (m, signal) => checkTypes[m.type].run(m, { signal, now: Date.now() }, {}),
      notBefore: (m) => checkTypes[m.type].notBefore?.(m) ?? null,
      record: (w) => writes.push(w),
    });
    try {
      scheduler.upsert(cronPush(1, berlinNightly));
      const ping = () =>
        scheduler.pushResult(
          1,
          pingRun({ status: 'up', message: null, durationMs: 5000 }, null),
          Date.now(),
        );
      // Saturday's run at 02:30 CET pings a minute late: in time.
      await vi.advanceTimersByTimeAsync(utc('2026-03-28T01:31:00Z') - Date.now());
      expect(ping()).toBe(true);
      // Sunday: the job runs at 03:00 CEST (01:00 UTC), pings at 01:05 UTC.
      await vi.advanceTimersByTimeAsync(utc('2026-03-29T01:05:00Z') - Date.now());
      expect(writes.map((w) => w.run.outcome)).toEqual(['up']);
      expect(ping()).toBe(true);
      // Monday's run (02:30 CEST = 00:30 UTC) never pings: the miss comes at 00:40 UTC, not before.
      await vi.advanceTimersByTimeAsync(utc('2026-03-30T00:39:59Z') - Date.now());
      expect(writes.map((w) => w.run.outcome)).toEqual(['up', 'up']);
      await vi.advanceTimersByTimeAsync(1000);
      expect(writes.map((w) => [iso(w.at), w.run.errorCode])).toEqual([
        ['2026-03-28T01:31:00.000Z', null],
        ['2026-03-29T01:05:00.000Z', null],
        ['2026-03-30T00:40:00.000Z', 'heartbeat_missed'],
      ]);
      expect(writes[2]!.run.errorMessage).toBe(
        'No ping for 23 h 35 min; expected on "30 2 * * *" (Europe/Berlin) + 10 min grace',
      );
    } finally {
      await scheduler.stop();
    }
  });
});
