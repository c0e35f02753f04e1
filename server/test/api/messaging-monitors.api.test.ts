import { Monitor, MonitorList, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

const mqtt = {
  type: 'mqtt',
  name: 'Plant broker',
  host: 'broker.example.com',
  port: 8883,
  tls: true,
  username: 'watcher',
  password: 'broker-secret-1',
  mode: 'subscribe',
  topic: 'plant/+/status',
  match: 'json',
  jsonPath: '$.ok',
  expected: 'true',
};
const amqp = {
  type: 'amqp',
  name: 'Orders queue',
  host: 'rabbit.example.com',
  username: 'monitor',
  password: 'rabbit-secret-1',
  vhost: 'shop',
  queue: 'orders',
  maxDepth: 1000,
};
const smtp = {
  type: 'smtp',
  name: 'Mail relay',
  host: 'mx.example.com',
  port: 587,
  capabilities: ['AUTH', 'SIZE'],
};

describe.each(engines)('MQTT, RabbitMQ and SMTP monitors over the API on %s', (engine) => {
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
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  it('keeps broker passwords write-only: stored, shown as hasPassword, kept on an update without one', async () => {
    const m = await create(mqtt);
    expect(m).toMatchObject({
      type: 'mqtt',
      username: 'watcher',
      hasPassword: true,
      mode: 'subscribe',
    });
    expect(JSON.stringify(m)).not.toContain('broker-secret-1');
    const { password: _password, ...rest } = mqtt;
    const res = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${m.id}`,
      ...json({ ...rest, name: 'Plant broker (edited)' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Monitor.parse(res.json())).toMatchObject({ hasPassword: true });
    const cleared = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${m.id}`,
      ...json({ ...rest, password: '' }),
    });
    expect(Monitor.parse(cleared.json())).toMatchObject({ hasPassword: false });
  });

  it('creates a RabbitMQ monitor with its queue and lists its target', async () => {
    const m = await create(amqp);
    expect(m).toMatchObject({ type: 'amqp', port: 5672, vhost: 'shop', hasPassword: true });
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    expect(list.items.find((i) => i.id === m.id)?.target).toBe(
      'amqp://rabbit.example.com:5672/shop orders',
    );
  });

  it('creates an SMTP monitor with STARTTLS by default and lists smtp://', async () => {
    const m = await create(smtp);
    expect(m).toMatchObject({ type: 'smtp', security: 'starttls', warnDays: 14, ehloName: '' });
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    expect(list.items.find((i) => i.id === m.id)?.target).toBe('smtp://mx.example.com:587');
  });

  it('creates IMAP and POP3 monitors, STARTTLS by default, listed as imap(s):// and pop3(s)://', async () => {
    const imap = await create({ type: 'imap', name: 'Mailboxes', host: 'mail.example.com' });
    expect(imap).toMatchObject({ type: 'imap', port: 143, security: 'starttls', warnDays: 14 });
    const pop3 = await create({
      type: 'pop3',
      name: 'Old mailboxes',
      host: 'mail.example.com',
      port: 995,
      security: 'tls',
    });
    expect(pop3).toMatchObject({ type: 'pop3', port: 995, security: 'tls' });
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    expect(list.items.find((i) => i.id === imap.id)?.target).toBe('imap://mail.example.com:143');
    expect(list.items.find((i) => i.id === pop3.id)?.target).toBe('pop3s://mail.example.com:995');
  });

  it('names the field of each mistake', async () => {
    expect(await errors({ ...mqtt, mode: 'roundtrip', topic: 'plant/#' })).toEqual({
      topic: 'The probe is published to this topic, so it cannot hold the wildcards + or #',
    });
    expect(await errors({ ...mqtt, jsonPath: 'ok' })).toEqual({
      jsonPath: 'Write a JSON path such as $.status or $.items[0].ok',
    });
    expect(await errors({ ...amqp, queue: '' })).toEqual({
      queue: 'Enter the queue whose depth is checked, or clear the maximum depth',
    });
    expect(await errors({ ...smtp, capabilities: ['AUTH PLAIN'] })).toEqual({
      'capabilities.0': 'Capabilities are words such as AUTH or 8BITMIME',
    });
  });

  it('exports broker passwords as variable references, never their values', async () => {
    const res = await t.inject('/api/v1/export?format=yaml');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('rabbit-secret-1');
    const doc = parseYaml(res.body) as { monitors: Record<string, unknown>[] };
    const rabbit = doc.monitors.find((m) => m.type === 'amqp');
    expect(rabbit?.password).toMatch(/^\$\{env:MONITOR_[A-Z0-9_]+_PASSWORD\}$/);
    const mail = doc.monitors.find((m) => m.type === 'smtp');
    expect(mail).not.toHaveProperty('password');
  });
});
