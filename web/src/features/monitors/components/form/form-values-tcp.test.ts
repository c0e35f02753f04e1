import { defaultAlertRules, type Monitor } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { emptyValues, fromMonitor, toDraft, type FormValues } from './form-values';
import { validate } from './validate';

const tcp = (over: Partial<FormValues> = {}): FormValues => ({
  ...emptyValues('tcp'),
  name: 'Database',
  host: 'db.example.com',
  port: '5432',
  ...over,
});

const saved: Extract<Monitor, { type: 'tcp' }> = {
  id: 7,
  type: 'tcp',
  name: 'Cache',
  host: '10.0.0.5',
  port: 6379,
  send: 'PING\\r\\n',
  expect: '+PONG',
  interval: 30,
  timeout: 5,
  retries: 2,
  retryInterval: null,
  degradedThresholdMs: 200,
  tags: ['prod', 'cache'],
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

describe('tcp form values', () => {
  it('builds a tcp draft with only tcp settings, escapes kept as typed', () => {
    const { draft } = toDraft(tcp({ send: 'PING\\r\\n', expect: '+PONG', url: 'https://x' }));
    expect(draft).toEqual({
      type: 'tcp',
      name: 'Database',
      host: 'db.example.com',
      port: 5432,
      send: 'PING\\r\\n',
      expect: '+PONG',
      interval: 60,
      timeout: 10,
      retries: 1,
      retryInterval: null,
      degradedThresholdMs: null,
      tags: [],
      description: '',
      paused: false,
      alerts: defaultAlertRules,
    });
    expect(validate(tcp()).valid).toBe(true);
  });

  it('validates host and port live with the contract messages', () => {
    expect(validate(tcp({ port: '' })).errors.port).toBe('Enter a port number');
    expect(validate(tcp({ port: 'http' })).errors.port).toBe('Enter a number');
    expect(validate(tcp({ port: '70000' })).errors.port).toBe('Ports are 1 to 65,535');
    expect(validate(tcp({ host: 'db.example.com:5432' })).errors.host).toMatch(
      /host name or IP address/,
    );
    expect(validate(tcp({ send: 'x'.repeat(4097) })).errors.send).toMatch(/4,096/);
    expect(validate(tcp({ expect: 'x'.repeat(1001) })).errors.expect).toMatch(/1,000/);
  });

  it('ignores what was typed for http after switching to tcp, and the reverse', () => {
    const typed = tcp({ url: 'not a url', headers: [] });
    expect(validate(typed).errors).toEqual({});
    expect(validate({ ...typed, type: 'http' }).errors.url).toBeDefined();
  });

  it('round-trips a saved tcp monitor through the form', () => {
    const values = fromMonitor(saved);
    expect(values).toMatchObject({
      type: 'tcp',
      host: '10.0.0.5',
      port: '6379',
      send: 'PING\\r\\n',
      expect: '+PONG',
      interval: '30',
      degradedThresholdMs: '200',
      tags: 'prod, cache',
    });
    const { draft } = toDraft(values);
    expect(draft).toMatchObject({ type: 'tcp', host: '10.0.0.5', port: 6379, retries: 2 });
  });
});
