import { defaultAlertRules, type Monitor } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { emptyValues, fromMonitor, newHeaderRow, toDraft, type FormValues } from './form-values';
import { validate } from './validate';

const saved: Extract<Monitor, { type: 'http' }> = {
  id: 4,
  type: 'http',
  name: 'API',
  url: 'https://api.example.com/',
  method: 'GET',
  headers: [
    { name: 'X-Api-Key', secret: true, hasValue: true },
    { name: 'Accept', secret: false, hasValue: true, value: 'application/json' },
  ],
  bodyType: 'none',
  body: '',
  auth: { kind: 'none' },
  acceptedStatusCodes: ['200-299'],
  followRedirects: true,
  maxRedirects: 10,
  ipFamily: 'auto',
  ignoreTls: false,
  assertions: [],
  maxBodyBytes: 1024 * 1024,
  domainExpiry: null,
  interval: 60,
  timeout: 10,
  retries: 1,
  retryInterval: null,
  degradedThresholdMs: null,
  tags: [],
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

const headersOf = (v: FormValues) => {
  const { draft } = toDraft(v);
  return 'headers' in draft ? draft.headers : undefined;
};

describe('request header rows', () => {
  it('are secret when new, except the harmless names', () => {
    expect(newHeaderRow('X-Api-Key', 'k').secret).toBe(true);
    expect(newHeaderRow('Cookie', 'c').secret).toBe(true);
    expect(newHeaderRow('accept', 'application/json').secret).toBe(false);
    expect(newHeaderRow('User-Agent', 'probe').secret).toBe(false);
  });

  it('load a stored secret without its value and send it back without one, so it is kept', () => {
    const values = fromMonitor(saved);
    expect(values.headers.map(({ name, value, secret }) => ({ name, value, secret }))).toEqual([
      { name: 'X-Api-Key', value: '', secret: true },
      { name: 'Accept', value: 'application/json', secret: false },
    ]);
    expect(headersOf(values)).toEqual([
      { name: 'X-Api-Key', secret: true },
      { name: 'Accept', secret: false, value: 'application/json' },
    ]);
    expect(validate(values).valid).toBe(true);
    const typed = values.headers.map((h, i) => (i === 0 ? { ...h, value: 'new-key' } : h));
    expect(headersOf({ ...values, headers: typed })?.[0]).toEqual({
      name: 'X-Api-Key',
      secret: true,
      value: 'new-key',
    });
  });

  it('ask for the value of a renamed or unticked stored secret, and of a new one', () => {
    const values = fromMonitor(saved);
    const [key, accept] = values.headers;
    const renamed = validate({ ...values, headers: [{ ...key!, name: 'X-Other' }, accept!] });
    expect(renamed.errors[`headers.${key!.key}.value`]).toBe('Enter the value');
    // The stored value is matched by name in any case: only the spelling changed.
    const recased = { ...values, headers: [{ ...key!, name: 'x-api-key' }, accept!] };
    expect(validate(recased).valid).toBe(true);
    const unticked = validate({ ...values, headers: [{ ...key!, secret: false }, accept!] });
    expect(unticked.errors[`headers.${key!.key}.value`]).toBe('Enter the value');
    const fresh = newHeaderRow('X-New', '');
    const blank = validate({
      ...emptyValues('http'),
      name: 'A',
      url: 'https://a.example/',
      headers: [fresh],
    });
    expect(blank.errors[`headers.${fresh.key}.value`]).toBe('Enter the value');
  });
});
