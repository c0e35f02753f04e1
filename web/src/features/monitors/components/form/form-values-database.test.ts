import { defaultAlertRules, type Monitor } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { emptyValues, fromMonitor, toDraft, type FormValues } from './form-values';
import { validate } from './validate';

const saved = {
  id: 7,
  name: 'Orders database',
  interval: 60,
  timeout: 10,
  retries: 1,
  retryInterval: null,
  degradedThresholdMs: null,
  tags: [],
  description: '',
  paused: false,
  status: 'up' as const,
  statusChangedAt: null,
  lastCheck: null,
  lastDetails: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  alerts: defaultAlertRules,
  channelIds: [],
  type: 'postgres' as const,
  host: 'db.internal',
  port: 5433,
  database: 'orders',
  username: 'monitor',
  hasPassword: true,
  tls: true,
  ignoreTrust: false,
  warnDays: 7,
  query: 'SELECT 1',
  expected: '1',
} satisfies Monitor;

const redis = (over: Partial<FormValues> = {}): FormValues => ({
  ...emptyValues('redis'),
  name: 'Cache',
  host: 'cache.internal',
  ...over,
});

describe('the database part of the monitor form', () => {
  it('fills in a saved monitor, the password left empty and marked as saved', () => {
    const v = fromMonitor(saved);
    expect(v).toMatchObject({
      type: 'postgres',
      host: 'db.internal',
      port: '5433',
      dbDatabase: 'orders',
      dbUsername: 'monitor',
      dbPassword: '',
      dbPasswordSaved: true,
      dbTls: true,
      warnDays: '7',
      dbQuery: 'SELECT 1',
      dbExpected: '1',
    });
  });

  it('leaves an empty password out over a saved one (the server keeps it), and sends a typed one', () => {
    const kept = toDraft(fromMonitor(saved)).draft;
    expect(kept).not.toHaveProperty('password');
    const typed = toDraft({ ...fromMonitor(saved), dbPassword: 'new-pw' }).draft;
    expect(typed).toMatchObject({ password: 'new-pw', username: 'monitor', database: 'orders' });
  });

  it('reads the Redis database as a number and refuses a write command under its field', () => {
    expect(toDraft(redis({ dbDatabase: '3' })).draft).toMatchObject({ database: 3, command: '' });
    expect(toDraft(redis()).draft).toMatchObject({ database: 0 });
    const { errors } = validate(redis({ dbQuery: 'DEL sessions' }));
    expect(errors.command).toMatch(/^Only read commands can be run/);
    expect(validate(redis({ dbQuery: 'GET "feature flag"', dbExpected: 'on' })).valid).toBe(true);
  });

  it('asks for the user name of a PostgreSQL monitor', () => {
    const { errors } = validate({ ...emptyValues('postgres'), name: 'DB', host: 'db.internal' });
    expect(errors.username).toBe('Enter the user name');
  });
});
