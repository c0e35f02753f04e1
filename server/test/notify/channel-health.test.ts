import { deliveryPolicy, NotificationChannel, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertReceiver, type AlertReceiver } from '../fixtures/alert-receiver.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { outbox, queueDelivery } from '../support/outbox.js';

const base = '/api/v1/notification-channels';
const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

interface Hook {
  event: { kind: string; fallback?: { channelName: string; failures: number } | null };
  title: string;
  text: string;
}

/**
 * Delivery safety (ADR 62) end to end: a real notifier sends through the real webhook
 * channel to a loopback receiver that answers HTTP 500, and to a working fallback receiver.
 * One attempt per delivery, so each queued message is one given-up delivery.
 */
describe.each(engines)('channel fallback and health notices on %s', (engine) => {
  let t: TestApp;
  let failing: AlertReceiver;
  let spare: AlertReceiver;

  beforeAll(async () => {
    failing = await startAlertReceiver();
    spare = await startAlertReceiver();
    t = await startTestApp({
      engine,
      scheduler: true,
      notifier: { policy: { ...deliveryPolicy, attempts: 1 }, pollMs: 50, perChannel: 1 },
    });
  });
  afterAll(async () => {
    await t?.stop();
    await failing?.close();
    await spare?.close();
  });

  async function create(name: string, url: string, over: Record<string, unknown> = {}) {
    const res = await t.inject({
      method: 'POST',
      url: base,
      ...json({ kind: 'webhook', name, config: { url }, ...over }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return NotificationChannel.parse(res.json());
  }
  const put = (id: number, body: Record<string, unknown>) =>
    t.inject({ method: 'PUT', url: `${base}/${id}`, ...json({ kind: 'webhook', ...body }) });
  const get = async (id: number) =>
    NotificationChannel.parse((await t.inject(`${base}/${id}`)).json());
  const bodies = (r: AlertReceiver) => r.delivered().map((d) => d.body as Hook);
  /** Every row of the outbox sent or given up. */
  const settled = async () =>
    (await outbox(t.database)).every((d) => d.state === 'sent' || d.state === 'failed');

  it('after K failures sends to the fallback, marked; announces failing and recovery once', async () => {
    const backup = await create('Backup hook', spare.url);
    const primary = await create('Ops hook', failing.url, {
      fallbackChannelId: backup.id,
      failThreshold: 3,
    });
    expect(primary).toMatchObject({ fallbackChannelId: backup.id, failThreshold: 3 });
    failing.failNext(1_000, 500);

    // Five messages in one stream, in order: 1 and 2 fail, 3 makes it failing, 4 and 5 too.
    for (let i = 0; i < 5; i++)
      await queueDelivery(t.database, primary.id, 'm:1', 'monitor.down', Date.now());
    await spare.waitFor((got) => got.length === 4);
    await expect.poll(settled, { timeout: 15_000 }).toBe(true);
    expect(failing.requests.map((r) => r.status)).toEqual([500, 500, 500, 500, 500]);

    const got = bodies(spare);
    expect(got.map((b) => b.event.kind)).toEqual([
      'channel.failing',
      'monitor.down',
      'monitor.down',
      'monitor.down',
    ]);
    expect(got[0]!.title).toBe('Channel Ops hook is failing');
    expect(got[0]!.text).toContain('failed 3 deliveries in a row; last error: HTTP 500');
    for (const [i, copy] of got.slice(1).entries()) {
      expect(copy.title.startsWith('[Fallback] ')).toBe(true);
      expect(copy.text).toContain('sent here because the channel Ops hook failed');
      expect(copy.text).toContain('HTTP 500');
      expect(copy.event.fallback).toMatchObject({ channelName: 'Ops hook', failures: 3 + i });
    }
    const sick = await get(primary.id);
    expect(sick.health).toMatchObject({ consecutiveFailures: 5, failing: true });
    expect(sick.health.lastError).toContain('HTTP 500');

    // It works again: the first success announces recovery once, the second says nothing.
    failing.failNext(0);
    for (let i = 0; i < 2; i++)
      await queueDelivery(t.database, primary.id, 'm:1', 'monitor.up', Date.now());
    await failing.waitFor((ok) => ok.length === 2);
    await expect.poll(settled, { timeout: 15_000 }).toBe(true);
    const after = bodies(spare).slice(4);
    expect(after.map((b) => b.event.kind)).toEqual(['channel.recovered']);
    expect(after[0]!.title).toBe('Channel Ops hook delivers again');
    expect(bodies(failing).map((b) => b.event.fallback ?? null)).toEqual([null, null]);
    expect((await get(primary.id)).health).toEqual({
      consecutiveFailures: 0,
      failing: false,
      lastError: null,
    });
  });

  it('refuses a fallback that is the channel itself or leads back to it, naming the field', async () => {
    const a = await create('Hook A', spare.url);
    const b = await create('Hook B', spare.url, { fallbackChannelId: a.id });
    const c = await create('Hook C', spare.url, { fallbackChannelId: b.id });

    const self = await put(a.id, {
      name: 'Hook A',
      config: { url: spare.url },
      fallbackChannelId: a.id,
    });
    expect(self.statusCode).toBe(400);
    expect(Problem.parse(self.json()).errors).toEqual([
      expect.objectContaining({ path: 'fallbackChannelId', code: 'fallback_self' }),
    ]);

    // A → C → B → A.
    const loop = await put(a.id, {
      name: 'Hook A',
      config: { url: spare.url },
      fallbackChannelId: c.id,
    });
    expect(loop.statusCode).toBe(400);
    const problem = Problem.parse(loop.json());
    expect(problem.errors).toEqual([
      expect.objectContaining({ path: 'fallbackChannelId', code: 'fallback_cycle' }),
    ]);
    expect(problem.errors![0]!.message).toContain('"Hook A" → "Hook C" → "Hook B" → "Hook A"');

    const missing = await put(a.id, {
      name: 'Hook A',
      config: { url: spare.url },
      fallbackChannelId: 99_999,
    });
    expect(missing.statusCode).toBe(400);
    expect((await get(a.id)).fallbackChannelId).toBeNull();

    // A channel removed stops being anyone's fallback.
    expect((await t.inject({ method: 'DELETE', url: `${base}/${b.id}` })).statusCode).toBe(204);
    expect((await get(c.id)).fallbackChannelId).toBeNull();
  });
});
