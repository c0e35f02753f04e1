import { defaultAlertRules, type Monitor } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { absolutePushUrl, pushExamples } from '../PushUrlPanel';
import { emptyValues, fromMonitor, toDraft, type FormValues } from './form-values';
import { validate } from './validate';

const push = (over: Partial<FormValues> = {}): FormValues => ({
  ...emptyValues('push'),
  name: 'Nightly backup',
  ...over,
});

const saved: Extract<Monitor, { type: 'push' }> = {
  id: 9,
  type: 'push',
  name: 'Backup',
  graceSeconds: 300,
  pushToken: 'Abcd'.repeat(8),
  pushUrl: `/api/push/${'Abcd'.repeat(8)}`,
  pushTokenHint: 'Abcd',
  lastPingAt: null,
  schedule: { kind: 'cron', expression: '30 2 * * *', timezone: 'Europe/Berlin' },
  nextPingExpectedAt: null,
  lastRunMs: null,
  interval: 86_400,
  timeout: 10,
  retries: 0,
  retryInterval: null,
  degradedThresholdMs: null,
  tags: ['backups'],
  description: '',
  paused: false,
  status: 'up',
  statusChangedAt: null,
  lastCheck: null,
  lastDetails: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  alerts: defaultAlertRules,
  channelIds: [],
};

describe('push form values', () => {
  it('builds a push draft with the grace period and no target fields', () => {
    const { draft } = toDraft(push({ url: 'https://ignored', host: 'ignored', interval: '300' }));
    expect(draft).toEqual({
      type: 'push',
      name: 'Nightly backup',
      graceSeconds: 60,
      schedule: { kind: 'interval' },
      interval: 300,
      timeout: 10,
      retries: 1,
      retryInterval: null,
      degradedThresholdMs: null,
      tags: [],
      description: '',
      paused: false,
      alerts: defaultAlertRules,
    });
    expect(validate(push()).valid).toBe(true);
  });

  it('accepts a 10 s interval though the hidden timeout is 10 s: push monitors time nothing', () => {
    expect(validate(push({ interval: '10' })).errors).toEqual({});
  });

  it('validates the grace period live with the contract messages', () => {
    expect(validate(push({ graceSeconds: '-5' })).errors.graceSeconds).toBe(
      'The grace period cannot be negative',
    );
    expect(validate(push({ graceSeconds: '90000' })).errors.graceSeconds).toMatch(/at most a day/);
    expect(validate(push({ graceSeconds: 'soon' })).errors.graceSeconds).toBe('Enter a number');
  });

  it('sends a cron or OnCalendar schedule with its zone, and shows a bad one under its field', () => {
    const cron = { scheduleKind: 'cron' as const, scheduleTimezone: 'Europe/Berlin' };
    expect(toDraft(push({ ...cron, scheduleExpression: '30 2 * * *' })).draft).toMatchObject({
      schedule: { kind: 'cron', expression: '30 2 * * *', timezone: 'Europe/Berlin' },
    });
    expect(validate(push({ ...cron, scheduleExpression: '30 2 * *' })).errors).toEqual({
      'schedule.expression': expect.stringMatching(/^Use five fields/),
    });
    expect(
      validate(
        push({
          scheduleKind: 'oncalendar',
          scheduleExpression: 'Mon..Fri 09:00',
          scheduleTimezone: 'America/New_York',
        }),
      ).valid,
    ).toBe(true);
  });

  it('round-trips a saved push monitor through the form, leaving the token out', () => {
    const values = fromMonitor(saved);
    expect(values).toMatchObject({
      type: 'push',
      graceSeconds: '300',
      interval: '86400',
      scheduleKind: 'cron',
      scheduleExpression: '30 2 * * *',
      scheduleTimezone: 'Europe/Berlin',
    });
    const { draft } = toDraft(values);
    expect(draft).toMatchObject({
      type: 'push',
      graceSeconds: 300,
      retries: 0,
      schedule: { kind: 'cron', expression: '30 2 * * *', timezone: 'Europe/Berlin' },
    });
    expect(draft).not.toHaveProperty('pushToken');
  });

  it('resolves the push URL against this origin unless the server gave an absolute one', () => {
    const origin = 'http://127.0.0.1:3000';
    expect(absolutePushUrl('/api/push/abc', origin)).toBe(`${origin}/api/push/abc`);
    expect(absolutePushUrl('https://status.example.com/api/push/abc', origin)).toBe(
      'https://status.example.com/api/push/abc',
    );
    const url = 'https://pw.example.com/api/push/abc';
    expect(pushExamples(url).map((e) => e.command)).toEqual([
      `curl -fsS -m 10 --retry 3 -o /dev/null ${url}`,
      `curl -fsS -m 10 --retry 3 -o /dev/null "${url}?status=down&msg=Disk%20full"`,
      `curl -fsS -m 10 --retry 3 -o /dev/null ${url}/start\n./backup.sh\ncurl -fsS -m 10 --retry 3 -o /dev/null ${url}/$?`,
      `./backup.sh || curl -fsS -m 10 --retry 3 -o /dev/null ${url}/fail`,
    ]);
  });
});
