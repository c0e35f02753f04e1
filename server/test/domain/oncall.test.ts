import { describe, expect, it } from 'vitest';
import {
  handoffAt,
  icalFeed,
  nowAndNext,
  onCallAt,
  overlappingOverrides,
  shiftsBetween,
  type OnCallSchedule,
  type RotationLayer,
} from '../../src/domain/oncall/index.js';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const ANA = 1;
const BEN = 2;
const CLEO = 3;

/** Ana and Ben swap every Monday at 09:00 local time. */
const weekly = (startDate: string): RotationLayer => ({
  name: 'Primary',
  members: [ANA, BEN],
  startDate,
  handoff: '09:00',
  lengthDays: 7,
});
const schedule = (timeZone: string, layers: RotationLayer[], overrides = []): OnCallSchedule => ({
  timeZone,
  layers,
  overrides,
});

describe('weekly rotation across daylight saving changes', () => {
  it('Berlin, spring forward (29 March 2026): the handoff stays at 09:00, the week is 167 h', () => {
    const layer = weekly('2026-03-16');
    expect(new Date(handoffAt(layer, 1, 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-23T08:00:00.000Z', // 09:00 CET
    );
    expect(new Date(handoffAt(layer, 2, 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-30T07:00:00.000Z', // 09:00 CEST
    );
    const s = schedule('Europe/Berlin', [layer]);
    expect(onCallAt(s, at('2026-03-30T06:59:59Z'))?.userId).toBe(BEN);
    expect(onCallAt(s, at('2026-03-30T07:00:00Z'))?.userId).toBe(ANA);
    const [ben] = shiftsBetween(s, at('2026-03-24T00:00:00Z'), at('2026-03-31T00:00:00Z'));
    expect(ben!.userId).toBe(BEN);
    expect(ben!.end - handoffAt(layer, 1, 'Europe/Berlin')).toBe(167 * H);
  });

  it('Berlin, fall back (25 October 2026): the week is 169 h', () => {
    const layer = weekly('2026-10-19');
    expect(new Date(handoffAt(layer, 0, 'Europe/Berlin')).toISOString()).toBe(
      '2026-10-19T07:00:00.000Z',
    );
    expect(handoffAt(layer, 1, 'Europe/Berlin') - handoffAt(layer, 0, 'Europe/Berlin')).toBe(
      169 * H,
    );
    const s = schedule('Europe/Berlin', [layer]);
    expect(onCallAt(s, at('2026-10-26T07:59:59Z'))?.userId).toBe(ANA);
    expect(onCallAt(s, at('2026-10-26T08:00:00Z'))?.userId).toBe(BEN);
  });

  it('New York, spring forward (8 March 2026) and fall back (1 November 2026)', () => {
    const spring = weekly('2026-03-02');
    const ny = 'America/New_York';
    expect(new Date(handoffAt(spring, 0, ny)).toISOString()).toBe('2026-03-02T14:00:00.000Z');
    expect(new Date(handoffAt(spring, 1, ny)).toISOString()).toBe('2026-03-09T13:00:00.000Z');
    const fall = weekly('2026-10-26');
    expect(new Date(handoffAt(fall, 0, ny)).toISOString()).toBe('2026-10-26T13:00:00.000Z');
    expect(new Date(handoffAt(fall, 1, ny)).toISOString()).toBe('2026-11-02T14:00:00.000Z');
    const s = schedule(ny, [fall]);
    expect(onCallAt(s, at('2026-11-02T13:30:00Z'))?.userId).toBe(ANA);
    expect(onCallAt(s, at('2026-11-02T14:00:00Z'))?.userId).toBe(BEN);
  });

  it('a handoff inside the spring gap (02:30 does not exist) happens when the clocks jump', () => {
    const layer = { ...weekly('2026-03-22'), handoff: '02:30' };
    // 02:30 CET on 29 March does not exist; the first instant after the jump is 03:00 CEST.
    expect(new Date(handoffAt(layer, 1, 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
  });

  it('many weeks on, the rotation still alternates at 09:00 local', () => {
    const layer = weekly('2026-01-05');
    const s = schedule('Europe/Berlin', [layer]);
    // Week 46 of the rotation starts Monday 23 November 2026, 09:00 CET.
    expect(onCallAt(s, at('2026-11-23T08:00:00Z'))?.userId).toBe(ANA);
    expect(onCallAt(s, at('2026-11-23T07:59:00Z'))?.userId).toBe(BEN);
  });

  it('nobody is on call before the rotation starts', () => {
    expect(
      onCallAt(schedule('Europe/Berlin', [weekly('2026-03-16')]), at('2026-03-01T00:00Z')),
    ).toBe(null);
  });
});

describe('layers and overrides', () => {
  const nights: RotationLayer = {
    name: 'Nights',
    members: [CLEO],
    startDate: '2026-01-01',
    handoff: '00:00',
    lengthDays: 7,
    restriction: { days: [0, 1, 2, 3, 4, 5, 6], from: '22:00', to: '06:00' },
  };

  it('a later layer wins where it is active (nights 22:00–06:00 local), the one below elsewhere', () => {
    const s = schedule('Europe/Berlin', [weekly('2026-03-16'), nights]);
    expect(onCallAt(s, at('2026-03-24T21:30:00Z'))).toEqual({
      userId: CLEO, // 22:30 CET
      source: { kind: 'layer', layer: 'Nights' },
    });
    expect(onCallAt(s, at('2026-03-25T04:59:00Z'))?.userId).toBe(CLEO); // 05:59
    expect(onCallAt(s, at('2026-03-25T05:00:00Z'))?.userId).toBe(BEN); // 06:00
  });

  it('an override covers part of a shift; the shifts list shows the cover', () => {
    const cover = { userId: ANA, from: at('2026-03-25T12:00:00Z'), to: at('2026-03-26T12:00:00Z') };
    const s = schedule('Europe/Berlin', [weekly('2026-03-16')], [cover] as never);
    expect(onCallAt(s, at('2026-03-25T18:00:00Z'))).toEqual({
      userId: ANA,
      source: { kind: 'override' },
    });
    const shifts = shiftsBetween(s, at('2026-03-24T00:00:00Z'), at('2026-03-28T00:00:00Z'));
    expect(shifts.map((x) => [x.userId, new Date(x.start).toISOString()])).toEqual([
      [BEN, '2026-03-24T00:00:00.000Z'],
      [ANA, '2026-03-25T12:00:00.000Z'],
      [BEN, '2026-03-26T12:00:00.000Z'],
    ]);
  });

  it('says who is on call now and who is next', () => {
    const s = schedule('Europe/Berlin', [weekly('2026-03-16')]);
    const { now, next } = nowAndNext(s, at('2026-03-24T10:00:00Z'));
    expect(now).toMatchObject({ userId: BEN, end: at('2026-03-30T07:00:00Z') });
    expect(next).toMatchObject({ userId: ANA, start: at('2026-03-30T07:00:00Z') });
  });

  it('finds overlapping overrides (refused), and accepts ones that only touch', () => {
    const a = { userId: ANA, from: 0, to: 10 };
    expect(overlappingOverrides([a, { userId: BEN, from: 10, to: 20 }])).toBeNull();
    expect(overlappingOverrides([{ userId: BEN, from: 5, to: 20 }, a])).toEqual([1, 0]);
  });
});

describe('iCalendar feed', () => {
  it('has one event per shift in UTC, escaped names and CRLF lines', () => {
    const s = schedule('Europe/Berlin', [weekly('2026-03-16')]);
    const shifts = shiftsBetween(s, at('2026-03-23T08:00:00Z'), at('2026-04-06T07:00:00Z'));
    const ics = icalFeed({
      calendarName: 'Web, on call',
      scheduleId: 4,
      shifts,
      nameOf: (id) => (id === ANA ? 'Ana; Admin' : 'Ben'),
      now: at('2026-03-20T00:00:00Z'),
    });
    expect(ics).toContain('X-WR-CALNAME:Web\\, on call\r\n');
    expect(ics).toContain(
      'DTSTART:20260323T080000Z\r\nDTEND:20260330T070000Z\r\nSUMMARY:On call: Ben',
    );
    expect(ics).toContain(
      'DTSTART:20260330T070000Z\r\nDTEND:20260406T070000Z\r\nSUMMARY:On call: Ana\\; Admin',
    );
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });
});
