import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ChannelAttachResult,
  ChannelCoverage,
  ChannelTestResult,
  Monitor,
  MonitorTrialResult,
  NotificationChannel,
  Problem,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSignature } from '../../src/notify/channels/webhook/index.js';
import { startReceiver, type Receiver } from '../fixtures/receiver.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';

const SIGNING = 'sig-stored-2b9d-never-shown';
const TOKEN = 'bearer-stored-71c4-never-shown';

const json = (body: unknown, headers: Record<string, string>) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

/** A loopback site: `/hello` answers a greeting; `/private` only with the bearer token. */
async function startSite() {
  const seen: { path: string; auth: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    if (req.url === '/private' && req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end('who are you');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello from the trial site');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(engines)('alert coverage, trial checks and unsaved channel tests on %s', (engine) => {
  let t: TestApp;
  let viewer: Identity;
  let editor: Identity;
  let admin: Identity;
  let site: Awaited<ReturnType<typeof startSite>>;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ engine });
    viewer = await t.identity('viewer');
    editor = await t.identity('editor');
    admin = await t.identity('admin');
    site = await startSite();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await site?.close();
    await receiver?.close();
    await t?.stop();
  });

  const post = (url: string, body: unknown, who: Identity) =>
    t.inject({ method: 'POST', url, ...json(body, who.headers) });
  const problem = (body: string) => Problem.parse(JSON.parse(body));

  async function createMonitor(over: Parameters<typeof monitorInput>[0] = {}) {
    const res = await post('/api/v1/monitors', monitorInput(over), editor);
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json());
  }
  async function createChannel(over: Record<string, unknown> = {}) {
    const res = await post(
      '/api/v1/notification-channels',
      { kind: 'webhook', name: 'Ops', config: { url: receiver.url('/ok') }, ...over },
      admin,
    );
    expect(res.statusCode, res.body).toBe(201);
    return NotificationChannel.parse(res.json());
  }
  const coverage = async (who: Identity = viewer) => {
    const res = await t.inject({ url: '/api/v1/monitors/coverage', headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return ChannelCoverage.parse(res.json());
  };
  const uncoveredIds = async () => new Set((await coverage()).uncovered.map((m) => m.id));

  it('runs the check of an unsaved monitor once, with phases and assertions, and stores nothing', async () => {
    const before = (await coverage()).monitors;
    const res = await post(
      '/api/v1/monitors/test',
      monitorInput({
        url: site.url('/hello'),
        assertions: [{ kind: 'keyword', value: 'trial site' }],
      }),
      editor,
    );
    expect(res.statusCode, res.body).toBe(200);
    const run = MonitorTrialResult.parse(res.json());
    expect(run).toMatchObject({ outcome: 'up', httpStatus: 200, errorCode: null });
    expect(run.phases.connect).toEqual(expect.any(Number));
    expect(run.phases.ttfb).toEqual(expect.any(Number));
    expect(run.details.assertions.map((a) => [a.kind, a.passed])).toEqual([
      ['status', true],
      ['keyword', true],
    ]);
    expect(site.seen.some((s) => s.path === '/hello')).toBe(true);
    expect((await coverage()).monitors).toBe(before);
  });

  it('reports a failing assertion with what it expected and saw', async () => {
    const res = await post(
      '/api/v1/monitors/test',
      monitorInput({
        url: site.url('/hello'),
        assertions: [{ kind: 'keyword', value: 'goodbye' }],
      }),
      editor,
    );
    const run = MonitorTrialResult.parse(res.json());
    expect(run.outcome).toBe('down');
    expect(run.errorCode).toBe('keyword_missing');
    expect(run.details.assertions.find((a) => a.kind === 'keyword')).toMatchObject({
      expected: expect.stringContaining('goodbye'),
      passed: false,
    });
  });

  it('tests an edited monitor with its stored token, and records no result', async () => {
    const monitor = await createMonitor({
      url: site.url('/private'),
      auth: { kind: 'bearer', token: TOKEN },
    });
    const edited = monitorInput({
      name: monitor.name,
      url: site.url('/private'),
      auth: { kind: 'bearer' },
    });
    const res = await post(`/api/v1/monitors/${monitor.id}/test`, edited, editor);
    expect(res.statusCode, res.body).toBe(200);
    expect(MonitorTrialResult.parse(res.json())).toMatchObject({ outcome: 'up', httpStatus: 200 });
    expect(res.body).not.toContain(TOKEN);
    // A new monitor has no stored token to fall back on: the same settings are refused.
    const fresh = await post('/api/v1/monitors/test', edited, editor);
    expect(fresh.statusCode).toBe(400);
    expect(problem(fresh.body).errors?.map((e) => e.path)).toEqual(['auth.token']);
    const after = await t.inject({
      url: `/api/v1/monitors/${monitor.id}`,
      headers: viewer.headers,
    });
    expect(Monitor.parse(after.json()).lastCheck).toBeNull();
    const unknown = await post('/api/v1/monitors/999999/test', edited, editor);
    expect(unknown.statusCode).toBe(404);
    expect(problem(unknown.body).type).toBe('not_found');
  });

  it('refuses bad input with per-field errors, viewers, and push monitors', async () => {
    const bad = await post(
      '/api/v1/monitors/test',
      { type: 'http', name: '', url: 'ftp://nope', interval: 1 },
      editor,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    const p = problem(bad.body);
    expect(p.type).toBe('validation_failed');
    expect(p.errors?.map((e) => e.path)).toEqual(expect.arrayContaining(['name', 'url']));
    const forbidden = await post('/api/v1/monitors/test', monitorInput(), viewer);
    expect(forbidden.statusCode).toBe(403);
    expect(problem(forbidden.body).type).toBe('forbidden');
    // Another editor: trials are limited per person, and this one's budget went on the tests above.
    const push = await post(
      '/api/v1/monitors/test',
      { type: 'push', name: 'Job' },
      await t.identity('editor'),
    );
    expect(push.statusCode).toBe(409);
    expect(problem(push.body).type).toBe('conflict');
  });

  it('limits how often one person runs trials (429 with Retry-After)', async () => {
    const someone = await t.identity('editor');
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    // Push trials answer at once (409); a burst of 12 cannot all fit a burst of 5 + refills.
    for (let i = 0; i < 12; i++) {
      const res = await post('/api/v1/monitors/test', { type: 'push', name: 'Job' }, someone);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        retryAfter = res.headers['retry-after'];
        expect(problem(res.body).type).toBe('rate_limited');
      }
    }
    expect(statuses.slice(0, 5)).toEqual([409, 409, 409, 409, 409]);
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('sends a test through unsaved channel settings, new and edited (stored secret used, never shown)', async () => {
    const draft = await post(
      '/api/v1/notification-channels/test',
      { kind: 'webhook', name: 'Draft', config: { url: receiver.url('/draft') } },
      admin,
    );
    expect(draft.statusCode, draft.body).toBe(200);
    expect(ChannelTestResult.parse(draft.json())).toMatchObject({ ok: true, error: null });
    expect(receiver.requests.some((r) => r.path === '/draft')).toBe(true);

    const channel = await createChannel({ secrets: { signingSecret: SIGNING } });
    // The form changed the URL and left the secret alone: the stored secret signs the test.
    const edited = await post(
      `/api/v1/notification-channels/${channel.id}/test-settings`,
      { kind: 'webhook', name: 'Ops', config: { url: receiver.url('/edited') } },
      admin,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(ChannelTestResult.parse(edited.json()).ok).toBe(true);
    expect(edited.body).not.toContain(SIGNING);
    const got = receiver.requests.find((r) => r.path === '/edited')!;
    const ts = Number(got.headers['x-pagewatch-timestamp']);
    expect(got.headers['x-pagewatch-signature']).toBe(webhookSignature(SIGNING, ts, got.body));
    // Nothing was saved: the channel still points at /ok.
    const stored = await t.inject({
      url: `/api/v1/notification-channels/${channel.id}`,
      headers: admin.headers,
    });
    expect(NotificationChannel.parse(stored.json()).config).toMatchObject({
      url: receiver.url('/ok'),
    });
    const failing = await post(
      '/api/v1/notification-channels/test',
      { kind: 'webhook', name: 'Draft', config: { url: receiver.url('/fail') } },
      admin,
    );
    expect(ChannelTestResult.parse(failing.json())).toMatchObject({ ok: false });
    expect(ChannelTestResult.parse(failing.json()).error).toContain('500');
  });

  it('refuses bad channel settings per field, and anyone below admin', async () => {
    const bad = await post(
      '/api/v1/notification-channels/test',
      { kind: 'slack', name: '', config: {} },
      admin,
    );
    expect(bad.statusCode).toBe(400);
    expect(problem(bad.body).errors?.map((e) => e.path)).toEqual(
      expect.arrayContaining(['name', 'secrets.webhookUrl']),
    );
    const body = { kind: 'webhook', name: 'Draft', config: { url: receiver.url('/x') } };
    for (const who of [viewer, editor]) {
      const res = await post('/api/v1/notification-channels/test', body, who);
      expect(res.statusCode).toBe(403);
      expect(problem(res.body).type).toBe('forbidden');
    }
    const unknown = await post('/api/v1/notification-channels/999999/test-settings', body, admin);
    expect(unknown.statusCode).toBe(404);
  });

  it('counts monitors no enabled channel alerts for, and attaches a channel to all or a tag', async () => {
    const web = await createMonitor({ tags: ['web'] });
    const db = await createMonitor({ tags: ['db'] });
    let uncovered = await uncoveredIds();
    expect(uncovered.has(web.id) && uncovered.has(db.id)).toBe(true);
    expect((await coverage()).uncovered.find((m) => m.id === web.id)?.name).toBe(web.name);

    const webOnly = await createChannel({ name: 'Web team' });
    const tagged = await post(
      `/api/v1/notification-channels/${webOnly.id}/attach`,
      { scope: 'tag', tag: 'web' },
      admin,
    );
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect(ChannelAttachResult.parse(tagged.json())).toEqual({ attached: 1, matched: 1 });
    uncovered = await uncoveredIds();
    expect(uncovered.has(web.id)).toBe(false);
    expect(uncovered.has(db.id)).toBe(true);

    // A disabled channel alerts nobody: its monitors count as uncovered.
    const off = await createChannel({ name: 'Off', enabled: false });
    const all = await post(
      `/api/v1/notification-channels/${off.id}/attach`,
      { scope: 'all' },
      admin,
    );
    const result = ChannelAttachResult.parse(all.json());
    expect(result.matched).toBe((await coverage()).monitors);
    expect((await uncoveredIds()).has(db.id)).toBe(true);

    const everyone = await createChannel({ name: 'Everyone' });
    const first = ChannelAttachResult.parse(
      (
        await post(`/api/v1/notification-channels/${everyone.id}/attach`, { scope: 'all' }, admin)
      ).json(),
    );
    expect(first.attached).toBe(first.matched);
    expect((await coverage()).uncovered).toEqual([]);
    // Again: nothing new, nothing doubled.
    const again = ChannelAttachResult.parse(
      (
        await post(`/api/v1/notification-channels/${everyone.id}/attach`, { scope: 'all' }, admin)
      ).json(),
    );
    expect(again).toEqual({ attached: 0, matched: first.matched });
    const got = await t.inject({ url: `/api/v1/monitors/${db.id}`, headers: viewer.headers });
    expect(Monitor.parse(got.json()).channelIds).toEqual([off.id, everyone.id]);
  });

  it('refuses a bad attach scope, an unknown channel, and anyone below admin', async () => {
    const channel = await createChannel({ name: 'Scope' });
    const url = `/api/v1/notification-channels/${channel.id}/attach`;
    const bad = await post(url, { scope: 'tag', tag: '' }, admin);
    expect(bad.statusCode).toBe(400);
    expect(problem(bad.body)).toMatchObject({ type: 'validation_failed' });
    expect(problem(bad.body).errors?.map((e) => e.path)).toEqual(['tag']);
    expect((await post(url, { scope: 'everything' }, admin)).statusCode).toBe(400);
    const unknown = await post(
      '/api/v1/notification-channels/999999/attach',
      { scope: 'all' },
      admin,
    );
    expect(unknown.statusCode).toBe(404);
    expect(problem(unknown.body).type).toBe('not_found');
    for (const who of [viewer, editor]) {
      const res = await post(url, { scope: 'all' }, who);
      expect(res.statusCode).toBe(403);
      expect(problem(res.body).type).toBe('forbidden');
    }
  });
});
