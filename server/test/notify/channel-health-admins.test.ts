import { ContactMethodCreated, deliveryPolicy } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertReceiver, type AlertReceiver } from '../fixtures/alert-receiver.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { outbox, queueDelivery } from '../support/outbox.js';

interface Hook {
  event: { kind: string; channelHealth?: { channelName: string; failures: number } | null };
  title: string;
}

async function as(t: TestApp, who: Identity, method: string, url: string, body?: unknown) {
  const res = await fetch(`${t.url}${url}`, {
    method,
    headers: {
      ...who.headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (res.status === 204 ? null : await res.json()) as any };
}

/**
 * A failing channel with no fallback (ADR 68): the admins hear it on their own verified
 * contact methods, once when it starts failing and once when it delivers again; an editor's
 * contact method hears nothing. Real notifier, real webhook sends to loopback receivers.
 */
describe.each(engines)('a failing channel without a fallback tells the admins on %s', (engine) => {
  let t: TestApp;
  let broken: AlertReceiver;
  let adminPhone: AlertReceiver;
  let editorPhone: AlertReceiver;

  beforeAll(async () => {
    [broken, adminPhone, editorPhone] = await Promise.all([
      startAlertReceiver(),
      startAlertReceiver(),
      startAlertReceiver(),
    ]);
    t = await startTestApp({
      engine,
      scheduler: true,
      listen: true,
      notifier: { policy: { ...deliveryPolicy, attempts: 1 }, pollMs: 50, perChannel: 1 },
    });
  }, 20_000);
  afterAll(async () => {
    await t?.stop();
    await Promise.all([broken, adminPhone, editorPhone].map((r) => r?.close()));
  });

  async function verifiedWebhook(who: Identity, r: AlertReceiver) {
    const created = await as(t, who, 'POST', '/api/v1/me/contact-methods', {
      kind: 'webhook',
      label: 'Phone bridge',
      config: { url: r.url },
    });
    expect(created.status).toBe(201);
    const c = ContactMethodCreated.parse(created.body);
    const [msg] = await r.waitFor((all) => all.length > 0);
    const code = /verification code: (\d{6})/.exec((msg!.body as { title: string }).title)![1]!;
    const ok = await as(t, who, 'POST', `/api/v1/me/contact-methods/${c.method.id}/verify`, {
      code,
    });
    expect(ok.status).toBe(200);
  }

  const notices = (r: AlertReceiver) =>
    r
      .delivered()
      .map((d) => d.body as Hook)
      .filter((b) => b.event?.kind?.startsWith('channel.'));
  const settled = async () =>
    (await outbox(t.database)).every((d) => d.state === 'sent' || d.state === 'failed');

  it('announces failing and recovery once each to admins, not to editors', async () => {
    const admin = await t.identity('admin');
    const editor = await t.identity('editor');
    await verifiedWebhook(admin, adminPhone);
    await verifiedWebhook(editor, editorPhone);
    const created = await t.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: { kind: 'webhook', name: 'Ops hook', config: { url: broken.url }, failThreshold: 2 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const channelId = created.json().id as number;
    expect(created.json().fallbackChannelId).toBeNull();

    broken.failNext(1_000, 500);
    for (let i = 0; i < 4; i++)
      await queueDelivery(t.database, channelId, 'm:1', 'monitor.down', Date.now());
    await adminPhone.waitFor(() => notices(adminPhone).length === 1, 15_000);
    await expect.poll(settled, { timeout: 15_000 }).toBe(true);
    expect(broken.requests.map((r) => r.status)).toEqual([500, 500, 500, 500]);
    const [failing] = notices(adminPhone);
    expect(failing!.event.kind).toBe('channel.failing');
    expect(failing!.title).toBe('Channel Ops hook is failing');
    expect(failing!.event.channelHealth).toMatchObject({ channelName: 'Ops hook', failures: 2 });

    broken.failNext(0);
    for (let i = 0; i < 2; i++)
      await queueDelivery(t.database, channelId, 'm:1', 'monitor.up', Date.now());
    await broken.waitFor((ok) => ok.length === 2);
    await adminPhone.waitFor(() => notices(adminPhone).length === 2, 15_000);
    await expect.poll(settled, { timeout: 15_000 }).toBe(true);
    expect(notices(adminPhone).map((b) => b.event.kind)).toEqual([
      'channel.failing',
      'channel.recovered',
    ]);
    expect(notices(editorPhone)).toEqual([]);
  });
});
