import { defaultAlertRules, type Monitor } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { newAssertionRow } from './assertion-rows';
import { emptyValues, fromMonitor, toDraft, type FormValues } from './form-values';
import { validate } from './validate';

const http = (over: Partial<FormValues> = {}): FormValues => ({
  ...emptyValues('http'),
  name: 'API',
  url: 'https://api.example.com/health',
  ...over,
});

const saved: Extract<Monitor, { type: 'http' }> = {
  id: 3,
  type: 'http',
  name: 'API',
  url: 'https://api.example.com/health',
  method: 'POST',
  headers: [],
  bodyType: 'json',
  body: '{"ping":true}',
  auth: { kind: 'basic', username: 'ann', hasSecret: true },
  acceptedStatusCodes: ['200-299'],
  followRedirects: true,
  maxRedirects: 10,
  ipFamily: 'ipv6',
  ignoreTls: false,
  assertions: [
    { kind: 'json', path: '$.ok', op: 'equals', value: 'true', soft: false },
    { kind: 'latency', maxMs: 500, soft: true },
    { kind: 'header', name: 'X-Version', op: 'matches', value: '^2', soft: true },
  ],
  maxBodyBytes: 2048,
  domainExpiry: { warnDays: 21 },
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

describe('http form values', () => {
  it('round-trips a saved monitor, leaving the saved password out of the draft', () => {
    const values = fromMonitor(saved);
    expect(values).toMatchObject({
      bodyType: 'json',
      authKind: 'basic',
      authUsername: 'ann',
      authSecret: '',
      authSaved: 'basic',
      ipFamily: 'ipv6',
      maxBodyBytes: '2048',
      httpDomainExpiry: true,
      domainWarnDays: '21',
    });
    const result = validate(values);
    expect(result.errors).toEqual({});
    expect(result.draft).toMatchObject({
      bodyType: 'json',
      body: '{"ping":true}',
      auth: { kind: 'basic', username: 'ann' },
      ipFamily: 'ipv6',
      assertions: saved.assertions,
      maxBodyBytes: 2048,
      domainExpiry: { warnDays: 21 },
    });
    expect('auth' in result.draft && result.draft.auth).not.toHaveProperty('password');
  });

  it('sends a typed secret, and asks for a token only when none is saved', () => {
    const typed = toDraft(http({ authKind: 'bearer', authSecret: 'tok' })).draft;
    expect('auth' in typed && typed.auth).toEqual({ kind: 'bearer', token: 'tok' });
    expect(validate(http({ authKind: 'bearer' })).errors['auth.secret']).toBe('Enter the token');
    expect(validate(http({ authKind: 'bearer', authSaved: 'bearer' })).valid).toBe(true);
    // A saved password does not stand in for a token.
    expect(validate(http({ authKind: 'bearer', authSaved: 'basic' })).valid).toBe(false);
  });

  it('drops the body with "no body" and checks JSON bodies with the shared schema', () => {
    const none = toDraft(http({ bodyType: 'none', body: 'left over' })).draft;
    expect('body' in none && none.body).toBe('');
    expect(validate(http({ bodyType: 'json', body: '{' })).errors.body).toBe(
      'The body is not valid JSON',
    );
  });

  it('builds each assertion kind from its row, keeping row order and keys', () => {
    const rows = [
      { ...newAssertionRow('size'), sizeOp: 'at_least' as const, bytes: '10' },
      { ...newAssertionRow('regex'), pattern: 'v\\d', flags: 'i', mode: 'absent' as const },
      newAssertionRow('latency'),
    ];
    const result = validate(http({ assertions: rows }));
    expect(result.errors).toEqual({});
    expect(result.assertionKeys).toEqual(rows.map((r) => r.key));
    expect('assertions' in result.draft && result.draft.assertions).toEqual([
      { kind: 'size', op: 'at_least', bytes: 10, soft: false },
      { kind: 'regex', pattern: 'v\\d', flags: 'i', mode: 'absent', soft: false },
      { kind: 'latency', maxMs: 1000, soft: true },
    ]);
  });
});
