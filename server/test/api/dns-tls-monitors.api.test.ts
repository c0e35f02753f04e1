import { defaultAlertRules, Monitor, MonitorList, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const dns = { type: 'dns', name: 'Apex', host: 'example.com' };
const tls = { type: 'tls', name: 'Certificate', host: 'shop.example.com' };
const stateAndCommon = {
  interval: 60,
  timeout: 10,
  retries: 1,
  retryInterval: null,
  degradedThresholdMs: null,
  tags: [],
  description: '',
  paused: false,
  status: 'pending',
  statusChangedAt: null,
  lastCheck: null,
  lastDetails: null,
  alerts: defaultAlertRules,
  channelIds: [],
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
};

describe.each(engines)('dns and tls monitors over the API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  async function create(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json());
  }

  async function errors(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(400);
    const problem = Problem.parse(res.json());
    expect(problem.type).toBe('validation_failed');
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  async function listed(id: number) {
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    return list.items.find((i) => i.id === id);
  }

  describe('dns', () => {
    it('creates one with defaults (A, system resolver, any answer) and lists "A name"', async () => {
      const m = await create(dns);
      expect(m).toEqual({
        ...dns,
        ...stateAndCommon,
        id: m.id,
        recordType: 'A',
        resolver: '',
        expected: [],
        match: 'any',
      });
      expect(await listed(m.id)).toMatchObject({ type: 'dns', target: 'A example.com' });
    });

    it('reads and replaces every setting; the target names the resolver', async () => {
      const m = await create({
        ...dns,
        recordType: 'MX',
        resolver: '127.0.0.1:5353',
        expected: ['10 mail.example.com', ' 20 backup.example.com. '],
        match: 'all',
      });
      const got = Monitor.parse((await t.inject({ url: `/api/v1/monitors/${m.id}` })).json());
      expect(got).toMatchObject({
        recordType: 'MX',
        resolver: '127.0.0.1:5353',
        expected: ['10 mail.example.com', '20 backup.example.com.'],
        match: 'all',
      });
      expect((await listed(m.id))?.target).toBe('MX example.com @ 127.0.0.1:5353');
      const put = await t.inject({
        method: 'PUT',
        url: `/api/v1/monitors/${m.id}`,
        ...json({ ...dns, recordType: 'TXT', resolver: '[::1]:53', expected: ['v=spf1 -all'] }),
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({
        recordType: 'TXT',
        resolver: '[::1]:53',
        expected: ['v=spf1 -all'],
        match: 'any',
      });
    });

    it('accepts each record type of the fixed list and nothing else', async () => {
      for (const recordType of ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'CAA']) {
        await create({ ...dns, recordType });
      }
      for (const recordType of ['PTR', 'a', 'ANY', 1]) {
        expect(Object.keys(await errors({ ...dns, recordType }))).toEqual(['recordType']);
      }
    });

    it('takes host names only: no IP address, scheme or port', async () => {
      for (const host of ['', '10.0.0.5', '::1', 'https://example.com', 'example.com:53', 'a b']) {
        expect((await errors({ ...dns, host })).host, host).toMatch(/host name/);
      }
      await create({ ...dns, host: 'Example.COM.' });
    });

    it('takes an IP resolver with an optional port, brackets around IPv6 with a port', async () => {
      for (const resolver of ['10.0.0.53', 'fd00::53', '10.0.0.53:5353', '[fd00::53]:53']) {
        await create({ ...dns, resolver });
      }
      for (const resolver of [
        'dns.example.com',
        '10.0.0.53:0',
        '10.0.0.53:70000',
        'fd00::53:53x',
      ]) {
        expect((await errors({ ...dns, resolver })).resolver, resolver).toMatch(
          /Enter an IP address, optionally with a port/,
        );
      }
    });

    it('checks each expected value against its record type, naming the entry', async () => {
      const found = await errors({
        ...dns,
        recordType: 'A',
        expected: ['10.0.0.1', '2001:db8::1', ''],
      });
      expect(found).toEqual({
        'expected.1': 'A records are IPv4 addresses, e.g. 10.0.0.5',
        'expected.2': 'Expected values cannot be empty',
      });
      expect(await errors({ ...dns, recordType: 'MX', expected: ['mail.example.com'] })).toEqual({
        'expected.0': 'Write priority then host, e.g. 10 mail.example.com',
      });
      expect(
        Object.keys(await errors({ ...dns, recordType: 'CAA', expected: ['issue x'] })),
      ).toEqual(['expected.0']);
      expect(Object.keys(await errors({ ...dns, recordType: 'SOA', expected: ['ns1 x'] }))).toEqual(
        ['expected.0'],
      );
    });

    it('limits expected values to 20 and match to any or all', async () => {
      const many = Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`);
      expect(await errors({ ...dns, expected: many })).toEqual({
        expected: 'At most 20 expected values',
      });
      expect(Object.keys(await errors({ ...dns, match: 'some' }))).toEqual(['match']);
      await create({ ...dns, expected: many.slice(0, 20) });
    });

    it('rejects settings of other types', async () => {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...json({ ...dns, port: 53 }),
      });
      expect(res.statusCode).toBe(400);
      expect(Problem.parse(res.json()).errors?.[0]).toMatchObject({ code: 'unrecognized_keys' });
    });
  });

  describe('tls', () => {
    it('creates one with defaults (443, 14 days, trust checked) and lists host:port', async () => {
      const m = await create(tls);
      expect(m).toEqual({
        ...tls,
        ...stateAndCommon,
        id: m.id,
        port: 443,
        servername: '',
        warnDays: 14,
        ignoreTrust: false,
      });
      expect(await listed(m.id)).toMatchObject({ type: 'tls', target: 'shop.example.com:443' });
    });

    it('reads and replaces every setting; IPv6 targets are bracketed', async () => {
      const m = await create({
        ...tls,
        host: '10.0.0.5',
        port: 8443,
        servername: 'internal.example.com',
        warnDays: 30,
        ignoreTrust: true,
      });
      const got = Monitor.parse((await t.inject({ url: `/api/v1/monitors/${m.id}` })).json());
      expect(got).toMatchObject({
        host: '10.0.0.5',
        port: 8443,
        servername: 'internal.example.com',
        warnDays: 30,
        ignoreTrust: true,
      });
      const put = await t.inject({
        method: 'PUT',
        url: `/api/v1/monitors/${m.id}`,
        ...json({ ...tls, host: '::1', port: 993 }),
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({ servername: '', warnDays: 14, ignoreTrust: false });
      expect((await listed(m.id))?.target).toBe('[::1]:993');
    });

    it('rejects bad ports, warning days and server names with their field paths', async () => {
      expect(await errors({ ...tls, port: 0, warnDays: 0, servername: '10.0.0.1' })).toEqual({
        port: 'Ports are 1 to 65,535',
        warnDays: 'Warn at least 1 day ahead',
        servername: 'Enter a host name, e.g. www.example.com, or leave empty to use the host',
      });
      expect(await errors({ ...tls, warnDays: 366 })).toEqual({
        warnDays: 'Warn at most 365 days ahead',
      });
      expect(await errors({ ...tls, warnDays: 1.5 })).toEqual({ warnDays: 'Whole days only' });
      expect((await errors({ ...tls, host: 'https://shop.example.com' })).host).toMatch(
        /host name or IP address/,
      );
    });

    it('keeps the common rules: the timeout below the interval', async () => {
      expect(await errors({ ...tls, interval: 10, timeout: 10 })).toEqual({
        timeout: 'The timeout must be shorter than the interval',
      });
    });

    it('rejects settings of other types', async () => {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...json({ ...tls, ignoreTls: true }),
      });
      expect(res.statusCode).toBe(400);
      expect(Problem.parse(res.json()).errors?.[0]).toMatchObject({ code: 'unrecognized_keys' });
    });
  });

  it('a viewer reads them but cannot create one', async () => {
    const viewer = await t.identity('viewer');
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: { ...viewer.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(dns),
    });
    expect(res.statusCode).toBe(403);
  });
});
