import { defaultAlertRules, Monitor, MonitorList, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const valid = { type: 'tcp', name: 'Database', host: 'db.example.com', port: 5432 };

describe.each(engines)('tcp monitors over the API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  async function create(body: Record<string, unknown> = valid) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json());
  }

  async function errors(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode).toBe(400);
    const problem = Problem.parse(res.json());
    expect(problem.type).toBe('validation_failed');
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  it('creates one with defaults, no http fields, and lists it as host:port', async () => {
    const m = await create();
    expect(m).toEqual({
      ...valid,
      id: m.id,
      send: '',
      expect: '',
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
    });
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    expect(list.items.find((i) => i.id === m.id)).toMatchObject({
      type: 'tcp',
      target: 'db.example.com:5432',
    });
  });

  it('reads and replaces send/expect exactly as typed; IPv6 targets are bracketed', async () => {
    const m = await create({ ...valid, send: 'PING\\r\\n', expect: '+PONG' });
    const got = await t.inject({ url: `/api/v1/monitors/${m.id}` });
    expect(Monitor.parse(got.json())).toMatchObject({ send: 'PING\\r\\n', expect: '+PONG' });
    const put = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${m.id}`,
      ...json({ ...valid, host: '::1', port: 6379, expect: '' }),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ host: '::1', port: 6379, send: '', expect: '' });
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    expect(list.items.find((i) => i.id === m.id)?.target).toBe('[::1]:6379');
  });

  it('rejects ports outside 1–65535 and non-integers', async () => {
    expect((await errors({ ...valid, port: 0 })).port).toBe('Ports are 1 to 65,535');
    expect((await errors({ ...valid, port: 65_536 })).port).toBe('Ports are 1 to 65,535');
    expect((await errors({ ...valid, port: 80.5 })).port).toBe('Whole numbers only');
    expect(Object.keys(await errors({ ...valid, port: '80' }))).toEqual(['port']);
    expect(Object.keys(await errors({ type: 'tcp', name: 'x', host: 'h' }))).toEqual(['port']);
  });

  it('rejects hosts that are not a host name or an IP address', async () => {
    for (const host of [
      '',
      'http://db.example.com',
      'db.example.com:5432',
      'a b',
      '-x.com',
      '1.2.3.999',
    ]) {
      expect((await errors({ ...valid, host })).host, host).toMatch(/host name or IP address/);
    }
    for (const host of ['localhost', '10.0.0.5', 'fe80::1', 'a-b.example.com.']) {
      await create({ ...valid, host });
    }
  });

  it('limits send to 4 KiB and expect to 1,000 characters', async () => {
    const found = await errors({ ...valid, send: 'x'.repeat(4097), expect: 'y'.repeat(1001) });
    expect(Object.keys(found).sort()).toEqual(['expect', 'send']);
    await create({ ...valid, send: 'x'.repeat(4096), expect: 'y'.repeat(1000) });
  });

  it('rejects unknown fields, http settings included', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json({ ...valid, url: 'https://example.com/', isAdmin: true }),
    });
    expect(res.statusCode).toBe(400);
    expect(Problem.parse(res.json()).errors?.[0]).toMatchObject({ code: 'unrecognized_keys' });
  });

  it('rejects an unknown type by naming the field', async () => {
    const found = await errors({ ...valid, type: 'ftp' });
    expect(Object.keys(found)).toEqual(['type']);
  });
});
