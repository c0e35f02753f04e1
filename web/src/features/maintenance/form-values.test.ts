import { MaintenanceInput, type MaintenanceWindow } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  checkValues,
  emptyValues,
  fieldOf,
  previewInput,
  toDraft,
  toSchemaInput,
  valuesFromWindow,
  windowSchema,
} from './form-values';
import { describeSchedule, durationLabel } from './describe';
import { presetOf, presetRule } from './presets';

const NOW = Date.parse('2026-03-28T10:20:00Z');

describe('maintenance form values', () => {
  it('turns a one-off window typed in Berlin wall-clock time into instants', () => {
    const v = {
      ...emptyValues(NOW, 'Europe/Berlin'),
      title: 'Switch swap',
      startsAt: '2026-03-29T01:30',
      endsAt: '2026-03-29T03:30',
    };
    const parsed = MaintenanceInput.parse(toDraft(v));
    expect(parsed.schedule).toEqual({
      kind: 'once',
      startsAt: '2026-03-29T00:30:00.000Z',
      endsAt: '2026-03-29T01:30:00.000Z', // 03:30 CEST, after the clocks went forward
    });
  });

  it('starts from the next full hour in the chosen zone', () => {
    const v = emptyValues(NOW, 'America/New_York');
    expect([v.startsAt, v.endsAt, v.from]).toEqual([
      '2026-03-28T07:00',
      '2026-03-28T08:00',
      '2026-03-28T00:00',
    ]);
  });

  it('writes presets as RRULEs and reads them back', () => {
    const weekly = presetRule({ repeat: 'weekly', time: '02:30', days: ['SA', 'SU'] });
    expect(weekly).toBe('FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=2;BYMINUTE=30');
    expect(presetOf(weekly)).toEqual({ repeat: 'weekly', time: '02:30', days: ['SA', 'SU'] });
    expect(presetOf('FREQ=DAILY;BYHOUR=22;BYMINUTE=5')).toEqual({ repeat: 'daily', time: '22:05' });
    expect(presetOf('FREQ=DAILY;INTERVAL=2;BYHOUR=22')).toBeNull();
  });

  it('round-trips a stored window through the form', () => {
    const stored = {
      id: 1,
      title: 'Nightly',
      description: 'Backups',
      timezone: 'Europe/Berlin',
      scope: { kind: 'monitors', monitorIds: [3, 5] },
      schedule: {
        kind: 'rrule',
        expression: 'FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=1;BYMINUTE=0',
        durationMinutes: 45,
        from: '2026-01-01T00:00',
        until: null,
      },
    } as unknown as MaintenanceWindow;
    const v = valuesFromWindow(stored);
    expect(v).toMatchObject({
      repeat: 'weekly',
      weekdays: 'MO,WE',
      time: '01:00',
      monitorIds: '3,5',
    });
    expect(MaintenanceInput.parse(toDraft(v))).toEqual({
      title: 'Nightly',
      description: 'Backups',
      timezone: 'Europe/Berlin',
      scope: stored.scope,
      schedule: stored.schedule,
    });
    const cron = valuesFromWindow({
      ...stored,
      schedule: { ...stored.schedule, kind: 'cron', expression: '0 3 * * *' },
    } as MaintenanceWindow);
    expect(cron).toMatchObject({ repeat: 'advanced', rule: 'cron', expression: '0 3 * * *' });
  });

  it('puts schema and server errors on the form fields', () => {
    expect(fieldOf('schedule.expression', 'advanced')).toBe('expression');
    expect(fieldOf('schedule.expression', 'weekly')).toBe('time');
    expect(fieldOf('schedule.durationMinutes', 'daily')).toBe('duration');
    expect(fieldOf('scope.monitorIds.2', 'once')).toBe('monitorIds');
    expect(fieldOf('timezone', 'once')).toBe('timezone');
    const bad = windowSchema.safeParse(
      toSchemaInput({ ...emptyValues(NOW, 'UTC'), repeat: 'daily', duration: '0' }),
    );
    expect(bad.success).toBe(false);
    if (!bad.success) {
      expect(bad.error.issues.map((i) => [i.path[0], i.message])).toEqual([
        ['title', 'Give the window a title'],
        ['duration', 'A window lasts at least 1 minute'],
      ]);
    }
    expect(checkValues({ ...emptyValues(NOW, 'UTC'), repeat: 'weekly', weekdays: '' })).toEqual({
      weekdays: 'Choose at least one day',
    });
  });

  it('asks for a preview only once the schedule is complete', () => {
    const v = { ...emptyValues(NOW, 'UTC'), repeat: 'advanced' as const, expression: '' };
    expect(previewInput(v)).toBeNull();
    expect(previewInput({ ...v, expression: '0 3 * * *' })).toMatchObject({
      timezone: 'UTC',
      schedule: { kind: 'cron', expression: '0 3 * * *', durationMinutes: 60 },
    });
  });

  it('describes schedules and durations in words', () => {
    expect(durationLabel(90)).toBe('1 h 30 min');
    expect(durationLabel(45)).toBe('45 min');
    expect(durationLabel(2880)).toBe('2 days');
    expect(
      describeSchedule({
        kind: 'rrule',
        expression: 'FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30',
        durationMinutes: 60,
        from: '2026-01-01T00:00',
        until: null,
      }),
    ).toBe('Every Sunday at 02:30 for 1 h');
  });
});
