import { describe, expect, it } from 'vitest';
import {
  availability,
  calendarPeriods,
  exclusions,
  outageFigures,
  readSpans,
  toBuckets,
} from '../../src/domain/availability/index.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 2, 1);
const none = { checks: 0, up: 0, degraded: 0, down: 0 };

describe('availability', () => {
  it('counts delivered checks, degraded as delivered by default', () => {
    const a = availability({
      range: { start: T0, end: T0 + DAY },
      counts: { checks: 1440, up: 1420, degraded: 10, down: 10 },
      excludedCounts: none,
      maintenance: [],
      corrections: [],
    });
    expect(a.uptime).toBe(99.306);
    // 10 of 1,440 checks failed: 10 minutes of a day.
    expect(a.downtimeMs).toBe(10 * MIN);
    expect(a.countedMs).toBe(DAY);
  });

  it('counts degraded against it when the policy says so', () => {
    const a = availability(
      {
        range: { start: T0, end: T0 + DAY },
        counts: { checks: 1440, up: 1420, degraded: 10, down: 10 },
        excludedCounts: none,
        maintenance: [],
        corrections: [],
      },
      { degradedCountsAsDown: true, excludeMaintenance: true },
    );
    expect(a.uptime).toBe(98.611);
    expect(a.downtimeMs).toBe(20 * MIN);
  });

  it('leaves out maintenance and corrections, once where they overlap', () => {
    const maintenance = [{ start: T0 + HOUR, end: T0 + 2 * HOUR }];
    const corrections = [{ start: T0 + 90 * MIN, end: T0 + 3 * HOUR }];
    const range = { start: T0, end: T0 + DAY };
    expect(exclusions(range, maintenance, corrections)).toEqual([
      { start: T0 + HOUR, end: T0 + 3 * HOUR },
    ]);
    const a = availability({
      range,
      counts: { checks: 1440, up: 1320, degraded: 0, down: 120 },
      // The two excluded hours held 120 checks, 100 of them failed.
      excludedCounts: { checks: 120, up: 20, degraded: 0, down: 100 },
      maintenance,
      corrections,
    });
    expect(a.checks).toBe(1320);
    expect(a.excludedChecks).toBe(120);
    expect(a.uptime).toBe(98.485);
    expect(a.maintenanceMs).toBe(HOUR);
    expect(a.correctedMs).toBe(HOUR);
    expect(a.countedMs).toBe(22 * HOUR);
    expect(a.downtimeMs).toBe(20 * MIN);
  });

  it('counts maintenance when the policy does', () => {
    const a = availability(
      {
        range: { start: T0, end: T0 + DAY },
        counts: { checks: 100, up: 90, degraded: 0, down: 10 },
        excludedCounts: none,
        maintenance: [{ start: T0, end: T0 + HOUR }],
        corrections: [],
      },
      { degradedCountsAsDown: false, excludeMaintenance: false },
    );
    expect(a.maintenanceMs).toBe(0);
    expect(a.uptime).toBe(90);
  });

  it('has no uptime without checks', () => {
    const a = availability({
      range: { start: T0, end: T0 + HOUR },
      counts: none,
      excludedCounts: none,
      maintenance: [],
      corrections: [],
    });
    expect(a.uptime).toBeNull();
    expect(a.downtimeMs).toBe(0);
  });

  it('widens exclusions to the rollup buckets they touch', () => {
    expect(toBuckets([{ start: T0 + 30_000, end: T0 + 5 * MIN + 1 }], MIN)).toEqual([
      { start: T0, end: T0 + 6 * MIN },
    ]);
  });
});

describe('outage figures', () => {
  it('gives MTTR and MTBF, cutting out excluded time', () => {
    const range = { start: T0, end: T0 + DAY };
    const f = outageFigures(
      [
        { start: T0 - HOUR, end: T0 + 10 * MIN }, // began before the range: 10 min count
        { start: T0 + HOUR, end: T0 + HOUR + 30 * MIN },
        { start: T0 + 5 * HOUR, end: T0 + 6 * HOUR }, // inside maintenance: left out
      ],
      range,
      [{ start: T0 + 5 * HOUR, end: T0 + 6 * HOUR }],
      23 * HOUR,
    );
    expect(f.count).toBe(2);
    expect(f.totalMs).toBe(40 * MIN);
    expect(f.mttrMs).toBe(20 * MIN);
    expect(f.mtbfMs).toBe((23 * HOUR - 40 * MIN) / 2);
  });

  it('has no means without outages', () => {
    const f = outageFigures([], { start: T0, end: T0 + DAY }, [], DAY);
    expect(f).toEqual({ count: 0, totalMs: 0, mttrMs: null, mtbfMs: null });
  });
});

describe('calendar periods', () => {
  it('splits a quarter into months at the zone’s midnight, across a DST change', () => {
    const zone = 'Europe/Berlin';
    const start = Date.parse('2026-02-28T23:00:00Z'); // 1 March, 00:00 in Berlin
    const end = Date.parse('2026-05-31T22:00:00Z'); // 1 June, 00:00 in Berlin (summer time)
    const months = calendarPeriods({ start, end }, 'month', zone);
    expect(months.map((p) => p.label)).toEqual(['2026-03', '2026-04', '2026-05']);
    expect(new Date(months[1]!.start).toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(months[2]!.end).toBe(end);
    expect(calendarPeriods({ start, end }, 'quarter', zone).map((p) => p.label)).toEqual([
      '2026-Q1',
      '2026-Q2',
    ]);
  });

  it('gives the 23-hour day of the spring change', () => {
    const zone = 'Europe/Berlin';
    const start = Date.parse('2026-03-28T23:00:00Z');
    const days = calendarPeriods({ start, end: start + 2 * DAY }, 'day', zone);
    expect(days[0]!.label).toBe('2026-03-29');
    expect(days[0]!.end - days[0]!.start).toBe(23 * HOUR);
  });

  it('reads whole days inside a period and hours at its edges', () => {
    const start = Date.parse('2026-02-28T23:00:00Z');
    const end = Date.parse('2026-03-31T22:00:00Z');
    const spans = readSpans([{ start, end }]);
    expect(spans.map((s) => s.level)).toEqual(['hour', 'day', 'hour']);
    expect(spans[0]).toEqual({ level: 'hour', from: start, to: start + HOUR - 1 });
    expect(spans.at(-1)).toMatchObject({ level: 'hour', from: end - 22 * HOUR });
    expect(spans.at(-1)!.to).toBeLessThan(end);
  });
});
