import {
  Delivery,
  DeliveryPage,
  Monitor,
  NotificationChannel,
  type AlertEvent,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

const downEvent = (monitor: Monitor): AlertEvent => ({
  kind: 'monitor.down',
  at: new Date(1_700_000_000_000).toISOString(),
  monitor: { id: monitor.id, name: monitor.name, type: monitor.type, target: 'http://x/' },
  status: 'down',
  previousStatus: 'up',
  cause: { code: 'connect_refused', message: 'Connection refused', phase: 'connect', since: null },
  outageMs: null,
  downChecks: 1,
  certificate: null,
  incident: null,
});

describe.each(engines)('deliveries API on %s', (engine) => {
  let t: TestApp;
  let repos: Repositories;
  let editor: Identity;
  let admin: Identity;
  let viewer: Identity;
  let a: Monitor;
  let b: Monitor;
  let slack: NotificationChannel;
  let hook: NotificationChannel;
  const ids: Record<string, number> = {};

  async function channel(name: string, kind: 'webhook' | 'slack') {
    const body =
      kind === 'webhook'
        ? { kind, name, config: { url: 'http://127.0.0.1:9/' } }
        : { kind, name, config: {}, secrets: { webhookUrl: 'http://127.0.0.1:9/s' } };
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      ...json(body),
    });
    expect(res.statusCode, res.body).toBe(201);
    return NotificationChannel.parse(res.json());
  }

  async function monitor(name: string) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json(monitorInput({ name })),
    });
    return Monitor.parse(res.json());
  }

  beforeAll(async () => {
    t = await startTestApp({ engine });
    repos = repositories(t.database);
    editor = await t.identity('editor');
    admin = await t.identity('admin');
    viewer = await t.identity('viewer');
    hook = await channel('Hook', 'webhook');
    slack = await channel('Slack ops', 'slack');
    a = await monitor('Alpha');
    b = await monitor('Beta');
    const now = Date.now();
    const rows = [
      ['sentA', hook, a, 'sent', 1, null],
      ['failedA', slack, a, 'failed', 6, 'HTTP 404: no_team'],
      ['retryingB', hook, b, 'retrying', 2, 'connection refused'],
      ['queuedB', slack, b, 'queued', 0, null],
      ['leasedB', hook, b, 'retrying', 3, 'timeout'],
    ] as const;
    for (const [key, ch, m, state, attempts, lastError] of rows) {
      ids[key] = await repos.deliveryLog.insert({
        channelId: ch.id,
        monitorId: m.id,
        event: downEvent(m),
        state,
        attempts,
        lastError,
        nextAttemptAt: state === 'retrying' ? now + 60_000 : null,
        leaseUntil: key === 'leasedB' ? now + 600_000 : null,
        createdAt: now,
        sentAt: state === 'sent' ? now : null,
      });
    }
  });
  afterAll(async () => t.stop());

  async function list(query: string, who = admin) {
    const res = await t.inject({ url: `/api/v1/deliveries?${query}`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return DeliveryPage.parse(res.json());
  }

  it('lists deliveries newest first with their channel, event and state', async () => {
    const page = await list('');
    expect(page.items.map((d) => d.id)).toEqual(
      [ids.sentA, ids.failedA, ids.retryingB, ids.queuedB, ids.leasedB].reverse(),
    );
    const failed = page.items.find((d) => d.id === ids.failedA)!;
    expect(failed).toMatchObject({
      channel: { id: slack.id, name: 'Slack ops', kind: 'slack' },
      event: { kind: 'monitor.down', monitor: { id: a.id, name: 'Alpha' } },
      state: 'failed',
      attempts: 6,
      lastError: 'HTTP 404: no_team',
      sentAt: null,
    });
  });

  it('filters by channel, monitor and state', async () => {
    expect((await list(`channelId=${slack.id}`)).items.map((d) => d.id)).toEqual([
      ids.queuedB,
      ids.failedA,
    ]);
    expect((await list(`monitorId=${a.id}`)).items.map((d) => d.id)).toEqual([
      ids.failedA,
      ids.sentA,
    ]);
    expect((await list('state=retrying')).items.map((d) => d.id)).toEqual([
      ids.leasedB,
      ids.retryingB,
    ]);
  });

  it('pages with the before cursor', async () => {
    const first = await list('limit=2');
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toBe(first.items[1]!.id);
    const second = await list(`limit=2&before=${first.nextCursor}`);
    const third = await list(`limit=2&before=${second.nextCursor}`);
    expect(third.nextCursor).toBeNull();
    const all = [...first.items, ...second.items, ...third.items].map((d) => d.id);
    expect(all).toEqual((await list('')).items.map((d) => d.id));
  });

  it('shows editors one monitor’s deliveries and nobody else anything more', async () => {
    expect((await list(`monitorId=${b.id}`, editor)).items).toHaveLength(3);
    const whole = await t.inject({ url: '/api/v1/deliveries', headers: editor.headers });
    expect(whole.statusCode).toBe(403);
    const byViewer = await t.inject({
      url: `/api/v1/deliveries?monitorId=${a.id}`,
      headers: viewer.headers,
    });
    expect(byViewer.statusCode).toBe(403);
    const retry = await t.inject({
      method: 'POST',
      url: `/api/v1/deliveries/${ids.failedA}/retry`,
      headers: editor.headers,
    });
    expect(retry.statusCode).toBe(403);
  });

  it('retries a failed delivery now, giving it one more attempt', async () => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/v1/deliveries/${ids.failedA}/retry`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const d = Delivery.parse(res.json());
    expect(d).toMatchObject({ state: 'retrying', attempts: 5, lastError: 'HTTP 404: no_team' });
    expect(Date.parse(d.nextAttemptAt!)).toBeLessThanOrEqual(Date.now());
  });

  it('moves a retrying delivery forward, keeping its attempts', async () => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/v1/deliveries/${ids.retryingB}/retry`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Delivery.parse(res.json())).toMatchObject({ state: 'retrying', attempts: 2 });
  });

  it('refuses to retry what is sent, queued, being sent, or missing', async () => {
    for (const [id, status] of [
      [ids.sentA, 409],
      [ids.queuedB, 409],
      [ids.leasedB, 409],
      [999_999, 404],
    ] as const) {
      const res = await t.inject({
        method: 'POST',
        url: `/api/v1/deliveries/${id}/retry`,
        headers: admin.headers,
      });
      expect(res.statusCode, String(id)).toBe(status);
    }
  });
});
