import { defaultAlertRules, type Monitor } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { emptyValues, fromMonitor, toDraft, type FormValues } from './form-values';
import { validate } from './validate';

const common = {
  interval: 60,
  timeout: 10,
  retries: 1,
  retryInterval: null,
  degradedThresholdMs: null,
  tags: [],
  description: '',
  paused: false,
  alerts: defaultAlertRules,
};
const state = {
  status: 'up' as const,
  statusChangedAt: null,
  lastCheck: null,
  lastDetails: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  alerts: defaultAlertRules,
  channelIds: [],
};

const dns = (over: Partial<FormValues> = {}): FormValues => ({
  ...emptyValues('dns'),
  name: 'Apex',
  host: 'example.com',
  ...over,
});

const tls = (over: Partial<FormValues> = {}): FormValues => ({
  ...emptyValues('tls'),
  name: 'Shop certificate',
  host: 'shop.example.com',
  ...over,
});

describe('dns form values', () => {
  it('sends one expected value per non-blank line, trimmed, and no other type’s fields', () => {
    const { draft } = toDraft(
      dns({
        recordType: 'MX',
        resolver: '127.0.0.1:5353',
        expected: ' 10 mail.example.com \n\n20 backup.example.com\n',
        match: 'all',
        port: '443',
      }),
    );
    expect(draft).toEqual({
      type: 'dns',
      name: 'Apex',
      host: 'example.com',
      recordType: 'MX',
      resolver: '127.0.0.1:5353',
      expected: ['10 mail.example.com', '20 backup.example.com'],
      match: 'all',
      ...common,
    });
  });

  it('names the line of an expected value that does not fit the record type', () => {
    const { errors } = validate(dns({ expected: '10.0.0.1\n2001:db8::1' }));
    expect(errors).toEqual({
      expected: '“2001:db8::1”: A records are IPv4 addresses, e.g. 10.0.0.5',
    });
    expect(validate(dns({ recordType: 'AAAA', expected: '2001:db8::1' })).valid).toBe(true);
  });

  it('rejects an IP address as the name and a resolver host name', () => {
    const { errors } = validate(dns({ host: '10.0.0.5', resolver: 'dns.example.com' }));
    expect(Object.keys(errors).sort()).toEqual(['host', 'resolver']);
  });

  it('round-trips a saved monitor', () => {
    const saved: Extract<Monitor, { type: 'dns' }> = {
      ...common,
      ...state,
      id: 3,
      type: 'dns',
      name: 'Mail',
      host: 'example.com',
      recordType: 'TXT',
      resolver: '',
      expected: ['v=spf1 -all', 'hello'],
      match: 'any',
    };
    const values = fromMonitor(saved);
    expect(values.expected).toBe('v=spf1 -all\nhello');
    const { id: _id, status: _s, statusChangedAt: _c, lastCheck: _l, ...input } = saved;
    const { createdAt: _a, updatedAt: _u, lastDetails: _d, ...rest } = input;
    expect(toDraft(values).draft).toEqual(rest);
  });
});

describe('tls form values', () => {
  it('leaves the port to its default of 443 when empty', () => {
    const { draft } = toDraft(tls());
    expect(draft).toEqual({
      type: 'tls',
      name: 'Shop certificate',
      host: 'shop.example.com',
      servername: '',
      warnDays: 14,
      ignoreTrust: false,
      ...common,
    });
    expect(validate(tls()).valid).toBe(true);
  });

  it('checks the warning days and the name on the certificate', () => {
    const { errors } = validate(tls({ warnDays: '0', servername: 'https://x', port: 'abc' }));
    expect(errors).toEqual({
      warnDays: 'Warn at least 1 day ahead',
      servername: 'Enter a host name, e.g. www.example.com, or leave empty to use the host',
      port: 'Enter a number',
    });
  });

  it('round-trips a saved monitor', () => {
    const values = fromMonitor({
      ...common,
      ...state,
      id: 4,
      type: 'tls',
      name: 'Internal',
      host: '10.0.0.5',
      port: 8443,
      servername: 'internal.example.com',
      warnDays: 30,
      ignoreTrust: true,
    });
    expect(values).toMatchObject({
      port: '8443',
      servername: 'internal.example.com',
      warnDays: '30',
      ignoreTrust: true,
    });
    expect(toDraft(values).draft).toMatchObject({ port: 8443, warnDays: 30, ignoreTrust: true });
  });
});
