import { defaultAlertRules, Monitor, MonitorList, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});
const valid = { type: 'push', name: 'Nightly backup', interval: 300 };

type Push = Extract<Monitor, { type: 'push' }>;
const asPush = (body: unknown): Push => {
  const m = Monitor.parse(body);
  if (m.type !== 'push') throw new Error(`expected a push monitor, got ${m.type}`);
  return m;
};

describe.each(engines)('push monitors over the API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  async function create(body: Record<string, unknown> = valid) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return asPush(res.json());
  }

  async function errors(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode).toBe(400);
    const problem = Problem.parse(res.json());
    expect(problem.type).toBe('validation_failed');
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  it('creates one with a server-made token and URL, a 60 s grace by default, listed as "push"', async () => {
    const m = await create();
    expect(m).toEqual({
      ...valid,
      id: m.id,
      graceSeconds: 60,
      pushToken: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      pushUrl: `/api/push/${m.pushToken}`,
      pushTokenHint: m.pushToken!.slice(0, 4),
      lastPingAt: null,
      schedule: { kind: 'interval' },
      // Nothing came yet: the first ping is expected an interval after creation.
      nextPingExpectedAt: new Date(Date.parse(m.createdAt) + 300_000).toISOString(),
      lastRunMs: null,
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
    const other = await create({ ...valid, name: 'Another job' });
    expect(other.pushToken).not.toBe(m.pushToken);
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    expect(list.items.find((i) => i.id === m.id)).toMatchObject({ type: 'push', target: 'push' });
    // The token is a credential: the dashboard list never carries it.
    expect(JSON.stringify(list)).not.toContain(m.pushToken);
  });

  it('refuses a token in the input, bad grace periods and unknown fields, per field', async () => {
    expect(await errors({ ...valid, pushToken: 'a'.repeat(32) })).toHaveProperty('');
    expect(await errors({ ...valid, graceSeconds: -1 })).toEqual({
      graceSeconds: 'The grace period cannot be negative',
    });
    expect(await errors({ ...valid, graceSeconds: 86_401 })).toEqual({
      graceSeconds: 'The grace period is at most a day (86,400 seconds)',
    });
    expect(await errors({ ...valid, graceSeconds: 1.5 })).toEqual({
      graceSeconds: 'Whole seconds only',
    });
    expect(await errors({ ...valid, interval: 5 })).toEqual({
      interval: 'Check at most every 10 seconds',
    });
    expect(await errors({ ...valid, url: 'https://example.com' })).toHaveProperty('');
  });

  it('accepts the shortest interval with the default timeout: push monitors time nothing', async () => {
    const m = await create({ ...valid, interval: 10, graceSeconds: 0 });
    expect(m).toMatchObject({ interval: 10, graceSeconds: 0 });
  });

  it('keeps the token across edits and rotates it on request, with an audit line', async () => {
    const m = await create();
    const put = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${m.id}`,
      ...json({ ...valid, name: 'Renamed', graceSeconds: 120 }),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(asPush(put.json())).toMatchObject({ name: 'Renamed', pushToken: m.pushToken });

    const rotated = await t.inject({ method: 'POST', url: `/api/v1/monitors/${m.id}/push-token` });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const after = asPush(rotated.json());
    expect(after.pushToken).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(after.pushToken).not.toBe(m.pushToken);
    const read = asPush((await t.inject({ url: `/api/v1/monitors/${m.id}` })).json());
    expect(read.pushToken).toBe(after.pushToken);

    const audit = await t.inject({ url: '/api/v1/audit?limit=5' });
    expect(audit.body).toContain('monitor.push_token_rotated');
  });

  it('gives a monitor turned into a push monitor a token, and takes it away when it turns back', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json({ type: 'tcp', name: 'Was tcp', host: 'db.example.com', port: 5432 }),
    });
    const id = Monitor.parse(res.json()).id;
    const toPush = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${id}`,
      ...json({ ...valid, name: 'Now push' }),
    });
    const pushed = asPush(toPush.json());
    expect(pushed.pushToken).toMatch(/^[A-Za-z0-9]{32}$/);
    const back = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${id}`,
      ...json({ type: 'tcp', name: 'Tcp again', host: 'db.example.com', port: 5432 }),
    });
    expect(back.json()).not.toHaveProperty('pushToken');
    const rotate = await t.inject({ method: 'POST', url: `/api/v1/monitors/${id}/push-token` });
    expect(rotate.statusCode).toBe(409);
  });

  it('shows viewers the hint but not the token or URL, and lets only editors rotate', async () => {
    const m = await create();
    const viewer = await t.identity('viewer');
    const editor = await t.identity('editor');
    const seen = asPush(
      (await t.inject({ url: `/api/v1/monitors/${m.id}`, headers: viewer.headers })).json(),
    );
    expect(seen).toMatchObject({
      pushToken: null,
      pushUrl: null,
      pushTokenHint: m.pushToken!.slice(0, 4),
    });
    const refused = await t.inject({
      method: 'POST',
      url: `/api/v1/monitors/${m.id}/push-token`,
      headers: viewer.headers,
    });
    expect(refused.statusCode).toBe(403);
    const byEditor = asPush(
      (await t.inject({ url: `/api/v1/monitors/${m.id}`, headers: editor.headers })).json(),
    );
    expect(byEditor.pushToken).toBe(m.pushToken);
  });

  it('refuses "check now" on a push monitor: its job does the checking', async () => {
    const m = await create();
    const res = await t.inject({ method: 'POST', url: `/api/v1/monitors/${m.id}/check-now` });
    expect(res.statusCode).toBe(409);
    expect(Problem.parse(res.json()).detail).toMatch(/pings/);
  });
});
