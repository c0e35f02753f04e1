import { describe, expect, it } from 'vitest';
import { availability } from '../../src/domain/availability/compute.js';
import {
  burnRate,
  decideBurnAlert,
  defaultBurnRules,
  errorBudget,
  evaluateSlo,
  MonitorCounters,
  readRules,
  ruleThreshold,
  sloRange,
  tallyOf,
  timeToExhaustion,
  type SloTally,
} from '../../src/domain/slo/index.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (iso: string) => Date.parse(iso);

describe('SLO windows', () => {
  it('a calendar month starts at midnight on the 1st in its zone and is short by the DST hour', () => {
    // Berlin springs forward on 29 March 2026: March has 31 days less an hour.
    const r = sloRange('month', 'Europe/Berlin', at('2026-03-15T12:00:00Z'));
    expect(new Date(r.start).toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(new Date(r.end).toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(r.lengthMs).toBe(31 * DAY - HOUR);
    // October falls back: an hour longer.
    expect(sloRange('month', 'Europe/Berlin', at('2026-10-10T00:00:00Z')).lengthMs).toBe(
      31 * DAY + HOUR,
    );
  });

  it('the month changes at local midnight, not at UTC midnight', () => {
    // 22:30 UTC on 31 March is 00:30 on 1 April in Berlin (CEST, +2).
    const r = sloRange('month', 'Europe/Berlin', at('2026-03-31T22:30:00Z'));
    expect(new Date(r.start).toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(new Date(r.end).toISOString()).toBe('2026-04-30T22:00:00.000Z');
    expect(r.lengthMs).toBe(30 * DAY);
    // The same instant in UTC is still March.
    expect(sloRange('month', 'UTC', at('2026-03-31T22:30:00Z')).start).toBe(
      at('2026-03-01T00:00:00Z'),
    );
  });

  it('a quarter spans three months in its zone, across a year end', () => {
    const q4 = sloRange('quarter', 'America/New_York', at('2026-12-31T23:00:00Z'));
    expect(new Date(q4.start).toISOString()).toBe('2026-10-01T04:00:00.000Z');
    // New York is 5 h behind in January (EST).
    expect(new Date(q4.end).toISOString()).toBe('2027-01-01T05:00:00.000Z');
    // 23:00 UTC on 31 Dec is 18:00 in New York, still Q4; 06:00 UTC on 1 Jan is 01:00, Q1.
    const q1 = sloRange('quarter', 'America/New_York', at('2027-01-01T06:00:00Z'));
    expect(q1.start).toBe(q4.end);
    expect(q1.lengthMs).toBe(90 * DAY - HOUR); // Jan 31 + Feb 28 + Mar 31, DST on 14 March
  });

  it('rolling windows are the last N days, ending now', () => {
    const now = at('2026-05-10T10:00:00Z');
    expect(sloRange('28d', 'Asia/Tokyo', now)).toEqual({
      start: now - 28 * DAY,
      end: now,
      lengthMs: 28 * DAY,
    });
  });
});

describe('error budget and burn rate', () => {
  it('a 99.9 % SLO over 30 days allows 43.2 minutes; ten failed minutes leave 33.2', () => {
    const b = errorBudget(99.9, 30 * DAY, { checks: 43_200, bad: 10, downtimeMs: 10 * MIN });
    expect(b.budgetMs).toBe(2_592_000);
    expect(b.spentMs).toBe(10 * MIN);
    expect(b.remainingMs).toBe(1_992_000);
    expect(b.remainingPercent).toBe(76.852); // 33.2 / 43.2
  });

  it('burn rate is the failed share over the allowed share; exhaustion follows from it', () => {
    // 6 of 60 checks failed in the last hour: 10 % failing against 0.1 % allowed.
    expect(burnRate(99.9, { checks: 60, bad: 6 })).toBeCloseTo(100, 9);
    expect(burnRate(99.9, { checks: 0, bad: 0 })).toBeNull();
    // At burn 100 an hour spends 0.1 h of budget: 33.2 minutes last 332 minutes.
    expect(timeToExhaustion(99.9, 1_992_000, 100)).toBe(332 * MIN);
    expect(timeToExhaustion(99.9, 1_992_000, 0)).toBeNull();
    expect(timeToExhaustion(99.9, -1, 5)).toBe(0);
  });

  it("thresholds follow the window's length: 14.4 / 6 / 1 for 30 days, 13.44 for February", () => {
    expect(defaultBurnRules.map((r) => ruleThreshold(r, 30 * DAY))).toEqual([14.4, 6, 1]);
    expect(ruleThreshold(defaultBurnRules[0]!, 28 * DAY)).toBeCloseTo(13.44, 9);
  });

  it('maintenance is left out: its failed checks spend no budget', () => {
    // One day, checked every minute (1,440 checks); 30 failed, 20 of them inside a maintenance
    // hour whose bucket held 60 checks.
    const range = { start: at('2026-06-01T00:00:00Z'), end: at('2026-06-02T00:00:00Z') };
    const a = availability({
      range,
      counts: { checks: 1440, up: 1410, degraded: 0, down: 30 },
      excludedCounts: { checks: 60, up: 40, degraded: 0, down: 20 },
      maintenance: [{ start: at('2026-06-01T02:00:00Z'), end: at('2026-06-01T03:00:00Z') }],
      corrections: [],
    });
    expect(a.checks).toBe(1380);
    expect(a.down).toBe(10);
    // 10 of 1,380 checks over 23 counted hours: 10 minutes of downtime.
    expect(a.downtimeMs).toBe(10 * MIN);
    const b = errorBudget(99, DAY, { checks: a.checks, bad: a.down, downtimeMs: a.downtimeMs });
    expect(b.budgetMs).toBe(864_000);
    expect(b.remainingMs).toBe(264_000);
  });
});

describe('multi-window burn-rate rules', () => {
  const tallies = (entries: [number, SloTally][]) => new Map(entries);
  const window = 30 * DAY;

  it('a rule breaches only when both its long and its short window burn fast enough', () => {
    // The last hour burned at 15 (1.5 % failing) but the last 5 minutes are clean: no page.
    const calm = readRules(
      99.9,
      window,
      tallies([
        [HOUR, { checks: 600, bad: 9 }],
        [5 * MIN, { checks: 50, bad: 0 }],
      ]),
    );
    expect(calm[0]!.longBurn).toBeCloseTo(15, 9);
    expect(calm[0]!.breached).toBe(false);
    const burning = readRules(
      99.9,
      window,
      tallies([
        [HOUR, { checks: 600, bad: 9 }],
        [5 * MIN, { checks: 50, bad: 1 }],
      ]),
    );
    expect(burning[0]!.breached).toBe(true);
    // Rules whose windows have no checks do not breach.
    expect(burning[1]!.breached).toBe(false);
  });

  it('fires once per breach, escalates a ticket to a page, and resolves', () => {
    const page = readRules(
      99.9,
      window,
      tallies([
        [HOUR, { checks: 60, bad: 1 }],
        [5 * MIN, { checks: 5, bad: 1 }],
      ]),
    );
    const ticket = readRules(
      99.9,
      window,
      tallies([
        [72 * HOUR, { checks: 4320, bad: 5 }],
        [6 * HOUR, { checks: 360, bad: 1 }],
      ]),
    );
    const none = readRules(99.9, window, tallies([]));
    expect(decideBurnAlert(null, none)).toEqual({ kind: 'none', state: null });
    const t = decideBurnAlert(null, ticket);
    expect(t).toMatchObject({ kind: 'fire', state: 'ticket' });
    expect(decideBurnAlert('ticket', ticket)).toEqual({ kind: 'none', state: 'ticket' });
    expect(decideBurnAlert('ticket', page)).toMatchObject({ kind: 'fire', state: 'page' });
    expect(decideBurnAlert('page', page)).toEqual({ kind: 'none', state: 'page' });
    expect(decideBurnAlert('page', ticket)).toEqual({ kind: 'none', state: 'page' });
    expect(decideBurnAlert('page', none)).toEqual({ kind: 'resolve', state: null });
  });
});

describe('SLO status', () => {
  const range = {
    start: at('2026-06-01T00:00:00Z'),
    end: at('2026-07-01T00:00:00Z'),
    lengthMs: 30 * DAY,
  };

  it('is healthy, at risk, exhausted or without data', () => {
    const base = {
      target: 99.9,
      latency: null,
      range,
      now: at('2026-06-11T00:00:00Z'),
      lookbacks: new Map<number, SloTally>([[HOUR, { checks: 60, bad: 0 }]]),
      latencyObservedMs: null,
    };
    const healthy = evaluateSlo({
      ...base,
      window: { checks: 14_400, bad: 10, downtimeMs: 10 * MIN },
    });
    expect(healthy.status).toMatchObject({
      attainment: 99.931,
      remainingMs: 1_992_000,
      burnRate: 0,
      exhaustionMs: null,
      health: 'healthy',
    });
    const low = evaluateSlo({ ...base, window: { checks: 14_400, bad: 35, downtimeMs: 35 * MIN } });
    expect(low.status.health).toBe('at_risk'); // 8.2 of 43.2 minutes left: under 25 %
    const spent = evaluateSlo({
      ...base,
      window: { checks: 14_400, bad: 50, downtimeMs: 50 * MIN },
    });
    expect(spent.status).toMatchObject({ health: 'exhausted', exhaustionMs: 0 });
    expect(
      evaluateSlo({ ...base, window: { checks: 0, bad: 0, downtimeMs: 0 } }).status.health,
    ).toBe('no_data');
  });

  it('judges the latency objective at its percentile', () => {
    const input = {
      target: 99,
      latency: { percent: 95, thresholdMs: 500 },
      range,
      now: range.start + DAY,
      window: { checks: 100, bad: 0, downtimeMs: 0 },
      lookbacks: new Map<number, SloTally>(),
    };
    expect(evaluateSlo({ ...input, latencyObservedMs: 420 }).status.latency).toEqual({
      observedMs: 420,
      met: true,
    });
    const slow = evaluateSlo({ ...input, latencyObservedMs: 640 }).status;
    expect(slow.latency).toEqual({ observedMs: 640, met: false });
    expect(slow.health).toBe('at_risk');
  });
});

describe('burn-rate counters', () => {
  const c = (checks: number, down = 0, degraded = 0) => ({ checks, degraded, down });
  const base = at('2026-06-01T10:00:00Z');

  it('sum minutes for an hour or less, and whole hours plus the current one beyond', () => {
    const m = new MonitorCounters();
    // 09:00–09:59 closed as an hour from the rollups; 10:00–10:29 minute by minute.
    m.setHour(base - HOUR, c(60, 6));
    m.setHour(base - 2 * HOUR, c(60, 60));
    for (let i = 0; i < 30; i += 1) m.setMinute(base + i * MIN, c(1, i >= 25 ? 1 : 0));
    const closedTo = base + 30 * MIN;
    expect(m.counts(5 * MIN, closedTo)).toEqual(c(5, 5));
    expect(m.counts(30 * MIN, closedTo)).toEqual(c(30, 5));
    // An hour of minutes: only 30 are known (the 09:xx minutes were never set).
    expect(m.counts(HOUR, closedTo)).toEqual(c(30, 5));
    // 6 h: 10:00–10:29 and the five whole hours before (two are known).
    expect(m.counts(6 * HOUR, closedTo)).toEqual(c(150, 71));
  });

  it("fold an hour's minutes into its slot when the next hour begins; re-reads replace", () => {
    const m = new MonitorCounters();
    for (let i = 0; i < 60; i += 1) m.setMinute(base + i * MIN, c(2, i < 3 ? 1 : 0, 1));
    m.setMinute(base + 59 * MIN, c(2, 0, 1)); // the same minute read again
    m.setMinute(base + HOUR, c(2));
    expect(m.counts(6 * HOUR, base + HOUR + MIN)).toEqual(c(122, 3, 60));
    expect(tallyOf(c(10, 2, 3), false)).toEqual({ checks: 10, bad: 2 });
    expect(tallyOf(c(10, 2, 3), true)).toEqual({ checks: 10, bad: 5 });
  });

  it('never count a slot that holds another bucket', () => {
    const m = new MonitorCounters();
    m.setMinute(base, c(1, 1));
    // 60 minutes later the same slot is asked for a minute it does not hold.
    expect(m.counts(5 * MIN, base + 65 * MIN)).toEqual(c(0));
  });
});
