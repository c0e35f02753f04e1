import {
  instantToLocal,
  localToInstant,
  wallClockAt,
  type MaintenanceSchedule,
} from '@pagewatch/contract';
import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { MaintenanceCalendar } from '../../src/domain/maintenance/calendar.js';
import {
  activeAt,
  occurrences,
  Timeline,
  type WindowTiming,
} from '../../src/domain/maintenance/occurrences.js';
import { timingErrors } from '../../src/domain/maintenance/validate.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (iso: string) => Date.parse(iso);
const isoOf = (t: number) => new Date(t).toISOString();

function recurring(
  timezone: string,
  kind: 'cron' | 'rrule',
  expression: string,
  durationMinutes = 60,
  from = '2026-01-01T00:00',
  until: string | null = null,
): WindowTiming {
  return { timezone, schedule: { kind, expression, durationMinutes, from, until } };
}

const starts = (t: WindowTiming, from: string, to: string) =>
  occurrences(t, at(from), at(to)).map((o) => isoOf(o.start));

describe('wall-clock conversion (contract/zoned-time)', () => {
  it('maps a time skipped by spring-forward to the first instant after the gap', () => {
    expect(isoOf(localToInstant('2026-03-29T02:30', 'Europe/Berlin')!)).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(isoOf(localToInstant('2026-03-08T02:30', 'America/New_York')!)).toBe(
      '2026-03-08T07:00:00.000Z',
    );
  });

  it('maps a time that happens twice at fall-back to the first of the two', () => {
    expect(isoOf(localToInstant('2026-10-25T02:30', 'Europe/Berlin')!)).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    expect(isoOf(localToInstant('2026-11-01T01:30', 'America/New_York')!)).toBe(
      '2026-11-01T05:30:00.000Z',
    );
  });

  it('round-trips ordinary times and rejects impossible dates', () => {
    expect(instantToLocal(at('2026-07-01T10:15:00Z'), 'Europe/Berlin')).toBe('2026-07-01T12:15');
    expect(localToInstant('2026-07-01T12:15', 'Europe/Berlin')).toBe(at('2026-07-01T10:15:00Z'));
    expect(localToInstant('2026-02-30T10:00', 'UTC')).toBeNull();
    expect(localToInstant('2026-02-01 10:00', 'UTC')).toBeNull();
    expect(localToInstant('0099-02-01T10:00', 'UTC')).toBeNull();
  });
});

describe('recurring windows across DST changes', () => {
  it('a daily 02:30 window starts at 03:00 local on the spring-forward day (Berlin)', () => {
    const t = recurring('Europe/Berlin', 'rrule', 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30');
    expect(starts(t, '2026-03-27T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
      '2026-03-27T01:30:00.000Z',
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z', // 03:00 CEST: 02:30 does not exist that night
      '2026-03-30T00:30:00.000Z',
    ]);
    // It lasts its 60 minutes of real time from there.
    const day = occurrences(t, at('2026-03-29T00:00:00Z'), at('2026-03-29T12:00:00Z'));
    expect(day.map((o) => [isoOf(o.start), isoOf(o.end)])).toEqual([
      ['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z'],
    ]);
  });

  it('a daily 02:30 window happens once, the first time, on the fall-back day (Berlin)', () => {
    const t = recurring('Europe/Berlin', 'rrule', 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30');
    expect(starts(t, '2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z')).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, not 02:30 CET an hour later
      '2026-10-26T01:30:00.000Z',
    ]);
    // During the second 02:30 (CET) the window is still running: it started at 00:30Z for 60 min.
    expect(activeAt(t, at('2026-10-25T01:29:59Z'))).toBe(true);
    expect(activeAt(t, at('2026-10-25T01:30:00Z'))).toBe(false);
  });

  it('New York: 02:30 on the spring-forward day is 03:00 EDT; 01:30 on fall-back day is the EDT one', () => {
    const spring = recurring('America/New_York', 'cron', '30 2 * * *');
    expect(starts(spring, '2026-03-07T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
      '2026-03-07T07:30:00.000Z',
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T06:30:00.000Z',
    ]);
    const fall = recurring('America/New_York', 'cron', '30 1 * * *');
    expect(starts(fall, '2026-10-31T00:00:00Z', '2026-11-03T00:00:00Z')).toEqual([
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('a weekly RRULE keeps its local time while the UTC offset changes', () => {
    for (const [zone, from, to] of [
      ['America/New_York', '2026-02-20T00:00:00Z', '2026-03-20T00:00:00Z'],
      ['Europe/Berlin', '2026-03-15T00:00:00Z', '2026-04-10T00:00:00Z'],
      ['Europe/Berlin', '2026-10-10T00:00:00Z', '2026-11-05T00:00:00Z'],
    ] as const) {
      const t = recurring(zone, 'rrule', 'FREQ=WEEKLY;BYDAY=SU;BYHOUR=10;BYMINUTE=0');
      const found = occurrences(t, at(from), at(to));
      expect(found).toHaveLength(4);
      expect(new Set(found.map((o) => instantToLocal(o.start, zone).slice(11)))).toEqual(
        new Set(['10:00']),
      );
      const gaps = found.slice(1).map((o, i) => (o.start - found[i]!.start) / HOUR);
      // The week across the change is an hour shorter or longer in real time.
      expect(gaps.filter((g) => g !== 168)).toHaveLength(1);
      expect([167, 169]).toContain(gaps.find((g) => g !== 168));
    }
  });

  it('cron 0 3 * * * with a zone fires at 03:00 local on both sides of each change', () => {
    const t = recurring('Europe/Berlin', 'cron', '0 3 * * *');
    expect(starts(t, '2026-03-28T00:00:00Z', '2026-03-30T00:00:00Z')).toEqual([
      '2026-03-28T02:00:00.000Z',
      '2026-03-29T01:00:00.000Z',
    ]);
    expect(starts(t, '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z')).toEqual([
      '2026-10-25T02:00:00.000Z',
      '2026-10-26T02:00:00.000Z',
    ]);
    // Croner's own zone handling agrees on these days.
    const native = new Cron('0 3 * * *', { timezone: 'Europe/Berlin', paused: true });
    expect(native.nextRun(new Date(at('2026-03-28T12:00:00Z')))!.toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
  });

  it('honours the start and the end of the recurrence', () => {
    const t = recurring(
      'UTC',
      'rrule',
      'FREQ=DAILY;BYHOUR=12;BYMINUTE=0',
      30,
      '2026-05-02T00:00',
      '2026-05-04T12:00',
    );
    expect(starts(t, '2026-05-01T00:00:00Z', '2026-05-10T00:00:00Z')).toEqual([
      '2026-05-02T12:00:00.000Z',
      '2026-05-03T12:00:00.000Z',
      '2026-05-04T12:00:00.000Z',
    ]);
    expect(new Timeline(t).state(at('2026-05-04T12:29:00Z'), false)).toBe('active');
    expect(new Timeline(t).state(at('2026-05-04T12:30:00Z'), false)).toBe('ended');
    expect(new Timeline(t).state(at('2026-05-01T00:00:00Z'), false)).toBe('scheduled');
    expect(new Timeline(t).state(at('2026-05-03T12:10:00Z'), true)).toBe('cancelled');
  });
});

/**
 * The oracle: for each local date, walk real time forward and take the first instant whose
 * wall-clock reading is at or past the wanted time on that date. That is the gap and overlap
 * rule stated plainly, computed without the code under test.
 */
function bruteDailyStart(zone: string, date: string, hhmm: string): number {
  const target = `${date}T${hhmm}`;
  const reading = (t: number) => {
    const w = wallClockAt(t, zone);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${w.year}-${p(w.month)}-${p(w.day)}T${p(w.hour)}:${p(w.minute)}`;
  };
  let t = Date.parse(`${date}T00:00:00Z`) - 15 * HOUR;
  // 15-minute steps never jump past the target: every offset change here is on a quarter hour.
  while (reading(t + 15 * MIN) < target) t += 15 * MIN;
  while (reading(t) < target) t += MIN;
  return t;
}

describe('brute force: daily windows against a day-by-day computation', () => {
  for (const zone of ['Europe/Berlin', 'America/New_York']) {
    for (const hhmm of ['00:00', '01:30', '02:30', '03:00']) {
      it(`${zone} daily at ${hhmm} through 2026`, () => {
        const [h, m] = hhmm.split(':').map(Number) as [number, number];
        const t = recurring(zone, 'cron', `${m} ${h} * * *`, 45, '2025-12-31T00:00');
        const rr = recurring(
          zone,
          'rrule',
          `FREQ=DAILY;BYHOUR=${h};BYMINUTE=${m}`,
          45,
          '2025-12-31T00:00',
        );
        const year = occurrences(t, at('2026-01-01T12:00:00Z'), at('2027-01-01T12:00:00Z'));
        expect(occurrences(rr, at('2026-01-01T12:00:00Z'), at('2027-01-01T12:00:00Z'))).toEqual(
          year,
        );
        const byDate = new Map(year.map((o) => [instantToLocal(o.start, zone).slice(0, 10), o]));
        let checked = 0;
        for (let d = at('2026-01-02T00:00:00Z'); d < at('2027-01-01T00:00:00Z'); d += DAY) {
          const date = isoOf(d).slice(0, 10);
          const expected = bruteDailyStart(zone, date, hhmm);
          const got = byDate.get(date);
          expect(got && isoOf(got.start), `${zone} ${date} ${hhmm}`).toBe(isoOf(expected));
          expect(got!.end - got!.start).toBe(45 * MIN);
          checked++;
        }
        expect(checked).toBe(364);
      });
    }
  }
});

describe('one-off windows', () => {
  const once = (startsAt: string, endsAt: string): WindowTiming => ({
    timezone: 'Europe/Berlin',
    schedule: { kind: 'once', startsAt, endsAt } satisfies MaintenanceSchedule,
  });

  it('are absolute instants, whatever the zone', () => {
    const t = once('2026-03-29T00:30:00Z', '2026-03-29T02:30:00Z');
    expect(activeAt(t, at('2026-03-29T00:29:59Z'))).toBe(false);
    expect(activeAt(t, at('2026-03-29T00:30:00Z'))).toBe(true);
    expect(activeAt(t, at('2026-03-29T02:29:59Z'))).toBe(true);
    expect(activeAt(t, at('2026-03-29T02:30:00Z'))).toBe(false);
    expect(new Timeline(t).activeUntil(at('2026-03-29T01:00:00Z'))).toBe(
      at('2026-03-29T02:30:00Z'),
    );
    expect(new Timeline(t).upcoming(at('2026-03-30T00:00:00Z'), 5)).toEqual([]);
  });
});

describe('upcoming and activeUntil', () => {
  it('lists the running occurrence first, and merges overlapping ones for activeUntil', () => {
    // Every hour for 90 minutes: occurrences overlap, so the window never lets go.
    const t = recurring('UTC', 'cron', '0 * * * *', 90, '2026-06-01T00:00', '2026-06-01T03:00');
    const tl = new Timeline(t);
    const now = at('2026-06-01T01:10:00Z');
    expect(tl.upcoming(now, 5).map((o) => isoOf(o.start))).toEqual([
      '2026-06-01T00:00:00.000Z',
      '2026-06-01T01:00:00.000Z',
      '2026-06-01T02:00:00.000Z',
      '2026-06-01T03:00:00.000Z',
    ]);
    expect(isoOf(tl.activeUntil(now)!)).toBe('2026-06-01T04:30:00.000Z');
  });
});

describe('rule validation', () => {
  const errors = (kind: 'cron' | 'rrule', expression: string) =>
    timingErrors(recurring('UTC', kind, expression));

  it('accepts good rules', () => {
    expect(errors('cron', '0 3 * * 1-5')).toEqual([]);
    expect(errors('rrule', 'FREQ=WEEKLY;BYDAY=SU;BYHOUR=2')).toEqual([]);
    expect(errors('rrule', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=1')).toEqual([]);
  });

  it('names the expression field for rules that do not parse or never happen', () => {
    for (const [kind, expression] of [
      ['cron', '61 * * * *'],
      ['cron', '0 3 * *'],
      ['cron', '0 0 3 * * *'],
      ['rrule', 'FREQ=BOGUS'],
      ['rrule', 'BYHOUR=3'],
      ['rrule', 'hello'],
      ['rrule', 'DTSTART;TZID=Europe/Berlin:20260301T023000\nRRULE:FREQ=DAILY'],
      ['rrule', 'FREQ=SECONDLY'],
      ['rrule', 'FREQ=DAILY;BYDAY=XX'],
      ['rrule', 'FREQ=DAILY;FOO=1'],
      ['rrule', 'FREQ=DAILY;;'],
      ['rrule', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'],
    ] as const) {
      const found = errors(kind, expression);
      expect(found, `${kind} ${expression}`).toHaveLength(1);
      expect(found[0]!.path).toBe('schedule.expression');
      expect(found[0]!.message).not.toBe('');
    }
  });
});

describe('MaintenanceCalendar', () => {
  it('answers per monitor and finds the next boundary', () => {
    const from = at('2026-06-01T00:00:00Z');
    const cal = new MaintenanceCalendar(
      [
        {
          id: 1,
          ...recurring('UTC', 'cron', '0 2 * * *', 30, '2026-05-01T00:00'),
          scope: { kind: 'monitors', monitorIds: [7] },
          cancelled: false,
        },
        {
          id: 2,
          timezone: 'UTC',
          schedule: {
            kind: 'once',
            startsAt: '2026-06-01T05:00:00Z',
            endsAt: '2026-06-01T06:00:00Z',
          },
          scope: { kind: 'all' },
          cancelled: false,
        },
        {
          id: 3,
          timezone: 'UTC',
          schedule: {
            kind: 'once',
            startsAt: '2026-06-01T00:00:00Z',
            endsAt: '2026-06-02T00:00:00Z',
          },
          scope: { kind: 'all' },
          cancelled: true,
        },
      ],
      from,
      from + 2 * DAY,
    );
    expect(cal.inMaintenance(7, at('2026-06-01T02:10:00Z'))).toBe(true);
    expect(cal.inMaintenance(8, at('2026-06-01T02:10:00Z'))).toBe(false);
    expect(cal.inMaintenance(8, at('2026-06-01T05:10:00Z'))).toBe(true);
    expect(cal.inMaintenance(8, at('2026-06-01T01:00:00Z'))).toBe(false);
    expect(isoOf(cal.nextBoundary(at('2026-06-01T02:10:00Z'))!)).toBe('2026-06-01T02:30:00.000Z');
    expect(isoOf(cal.nextBoundary(at('2026-06-01T02:30:00Z'))!)).toBe('2026-06-01T05:00:00.000Z');
  });
});
