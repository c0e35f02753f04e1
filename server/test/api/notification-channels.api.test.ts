import { ChannelList, ChannelTestResult, NotificationChannel, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startReceiver, type Receiver } from '../fixtures/receiver.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

const base = '/api/v1/notification-channels';
const SIGNING = 'sig-0f7a2c9e-never-shown';
const TOKEN = 'bot-123456:never-shown-either';

describe.each(engines)('notification channels API on %s', (engine) => {
  let t: TestApp;
  let viewer: Identity;
  let editor: Identity;
  let admin: Identity;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ engine });
    viewer = await t.identity('viewer');
    editor = await t.identity('editor');
    admin = await t.identity('admin');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.stop();
  });

  const webhook = (over: Record<string, unknown> = {}) => ({
    kind: 'webhook',
    name: 'Ops webhook',
    config: { url: receiver.url('/ok') },
    secrets: { signingSecret: SIGNING },
    ...over,
  });

  async function create(body: unknown, headers = admin.headers) {
    const res = await t.inject({ method: 'POST', url: base, ...json(body, headers) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).not.toContain(SIGNING);
    expect(res.body).not.toContain(TOKEN);
    return NotificationChannel.parse(res.json());
  }

  async function put(id: number, body: unknown) {
    return t.inject({ method: 'PUT', url: `${base}/${id}`, ...json(body, admin.headers) });
  }

  const fieldErrors = (body: unknown) =>
    Problem.parse(body).errors?.map((e) => e.path) ?? ['<none>'];

  it('creates a webhook channel with defaults and returns which secrets are set, not their values', async () => {
    const channel = await create(webhook());
    expect(channel).toMatchObject({
      kind: 'webhook',
      name: 'Ops webhook',
      isDefault: false,
      enabled: true,
      template: { title: '', body: '' },
      config: { url: receiver.url('/ok'), method: 'POST', headers: [] },
      secretsSet: ['signingSecret'],
      monitorCount: 0,
    });
    const got = await t.inject({ url: `${base}/${channel.id}`, headers: admin.headers });
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain(SIGNING);
    const list = await t.inject({ url: base, headers: admin.headers });
    expect(list.body).not.toContain(SIGNING);
    expect(ChannelList.parse(list.json()).items.map((c) => c.id)).toContain(channel.id);
  });

  it('refuses invalid settings with an error on each field, for several kinds', async () => {
    const cases: [unknown, string[]][] = [
      [webhook({ config: { url: 'ftp://x' } }), ['config.url']],
      [webhook({ name: '' }), ['name']],
      [{ kind: 'slack', name: 'S', config: {}, secrets: {} }, ['secrets.webhookUrl']],
      [
        { kind: 'telegram', name: 'T', config: { chatId: 'nope' }, secrets: {} },
        ['config.chatId', 'secrets.botToken'],
      ],
      [
        {
          kind: 'email',
          name: 'E',
          config: { host: '', from: 'not-an-address', to: [] },
          secrets: {},
        },
        ['config.host', 'config.from', 'config.to'],
      ],
      [
        { kind: 'ntfy', name: 'N', config: { topic: 'a b', priority: 9 }, secrets: {} },
        ['config.topic', 'config.priority'],
      ],
      [{ kind: 'carrier-pigeon', name: 'P', config: {}, secrets: {} }, ['kind']],
    ];
    for (const [body, paths] of cases) {
      const res = await t.inject({ method: 'POST', url: base, ...json(body, admin.headers) });
      expect(res.statusCode, res.body).toBe(400);
      expect(Problem.parse(res.json()).type).toContain('validation_failed');
      expect(fieldErrors(res.json()).sort()).toEqual([...paths].sort());
    }
  });

  it('keeps a secret left out of an update and replaces one that is given', async () => {
    const channel = await create(webhook({ name: 'Keeper' }));
    const kept = await put(channel.id, webhook({ name: 'Keeper 2', secrets: {} }));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(NotificationChannel.parse(kept.json())).toMatchObject({
      name: 'Keeper 2',
      secretsSet: ['signingSecret'],
    });
    const replaced = await put(channel.id, webhook({ secrets: { signingSecret: 'new-one' } }));
    expect(replaced.statusCode).toBe(200);
    expect(replaced.body).not.toContain('new-one');
  });

  it('needs every secret of the new kind when the kind changes', async () => {
    const channel = await create(webhook({ name: 'Changer' }));
    const missing = await put(channel.id, {
      kind: 'telegram',
      name: 'Changer',
      config: { chatId: '-100123' },
    });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(fieldErrors(missing.json())).toEqual(['secrets.botToken']);
    const given = await put(channel.id, {
      kind: 'telegram',
      name: 'Changer',
      config: { chatId: '-100123' },
      secrets: { botToken: TOKEN },
    });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.body).not.toContain(TOKEN);
    expect(NotificationChannel.parse(given.json())).toMatchObject({
      kind: 'telegram',
      config: { chatId: '-100123', baseUrl: 'https://api.telegram.org', messageThreadId: null },
      secretsSet: ['botToken'],
    });
  });

  it('deletes a channel; it is gone afterwards', async () => {
    const channel = await create(webhook({ name: 'Short-lived' }));
    const del = await t.inject({
      method: 'DELETE',
      url: `${base}/${channel.id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(204);
    const got = await t.inject({ url: `${base}/${channel.id}`, headers: admin.headers });
    expect(got.statusCode).toBe(404);
  });

  it('lets admins manage channels, editors list names only, and viewers nothing', async () => {
    const channel = await create(webhook({ name: 'Roles', isDefault: true }));
    const brief = await t.inject({ url: base, headers: editor.headers });
    expect(brief.statusCode).toBe(200);
    const mine = ChannelList.parse(brief.json()).items.find((c) => c.id === channel.id);
    expect(mine).toEqual({
      id: channel.id,
      name: 'Roles',
      kind: 'webhook',
      isDefault: true,
      enabled: true,
    });
    expect(brief.body).not.toContain(receiver.url('/ok'));
    for (const [method, url] of [
      ['POST', base],
      ['GET', `${base}/${channel.id}`],
      ['PUT', `${base}/${channel.id}`],
      ['DELETE', `${base}/${channel.id}`],
      ['POST', `${base}/${channel.id}/test`],
    ] as const) {
      const res = await t.inject({ method, url, ...json(webhook(), editor.headers) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const listed = await t.inject({ url: base, headers: viewer.headers });
    expect(listed.statusCode).toBe(403);
  });

  it('sends a test through the channel and says it arrived', async () => {
    const channel = await create(webhook({ name: 'Test ok' }));
    const before = receiver.requests.length;
    const res = await t.inject({
      method: 'POST',
      url: `${base}/${channel.id}/test`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ChannelTestResult.parse(res.json())).toMatchObject({ ok: true, error: null });
    const got = receiver.requests.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.path).toBe('/ok');
    expect(JSON.parse(got[0]!.body)).toMatchObject({ event: { kind: 'test' } });
  });

  it('reports the status and body excerpt of a receiver that fails', async () => {
    const channel = await create(
      webhook({ name: 'Test fail', config: { url: receiver.url('/fail') } }),
    );
    const res = await t.inject({
      method: 'POST',
      url: `${base}/${channel.id}/test`,
      headers: admin.headers,
    });
    const result = ChannelTestResult.parse(res.json());
    expect(result.ok).toBe(false);
    expect(result.error).toContain('HTTP 500');
    expect(result.error).toContain('receiver exploded');
  });

  it('reports a refused connection in plain words', async () => {
    const port = await refusedPort();
    const url = `http://127.0.0.1:${port}/`;
    const channel = await create(webhook({ name: 'Nobody home', config: { url } }));
    const res = await t.inject({
      method: 'POST',
      url: `${base}/${channel.id}/test`,
      headers: admin.headers,
    });
    expect(ChannelTestResult.parse(res.json())).toMatchObject({
      ok: false,
      error: `connection refused (127.0.0.1:${port})`,
    });
  });

  it('limits how often one channel is tested', async () => {
    const channel = await create(webhook({ name: 'Hammered' }));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.inject({
        method: 'POST',
        url: `${base}/${channel.id}/test`,
        headers: admin.headers,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
  it('is described in the OpenAPI document with each route’s access rule', async () => {
    const doc = (await t.inject({ url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { 'x-access': string }>>;
    }>();
    const access = (path: string, verb: string) => doc.paths[path]?.[verb]?.['x-access'];
    expect(access('/api/v1/notification-channels', 'get')).toBe('editor');
    expect(access('/api/v1/notification-channels', 'post')).toBe('admin');
    expect(access('/api/v1/notification-channels/{id}', 'put')).toBe('admin');
    expect(access('/api/v1/notification-channels/{id}/test', 'post')).toBe('admin');
    expect(access('/api/v1/deliveries', 'get')).toBe('editor');
    expect(access('/api/v1/deliveries/{id}/retry', 'post')).toBe('admin');
  });
});
