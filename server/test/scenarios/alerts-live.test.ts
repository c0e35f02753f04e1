import { Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertReceiver, type AlertReceiver } from '../fixtures/alert-receiver.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { insertChannel, linkChannel, outbox } from '../support/outbox.js';

/** The whole path: a real check fails, the outbox is written, the notifier posts to a webhook. */
describe.each(engines)('alerts from live checks on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  let receiver: AlertReceiver;
  let hook: number;
  let fallback: AlertReceiver;

  beforeAll(async () => {
    target = await startTargetServer();
    receiver = await startAlertReceiver();
    fallback = await startAlertReceiver();
    t = await startTestApp({ engine, scheduler: true, listen: true });
    hook = await insertChannel(t.database, { url: receiver.url, name: 'Team hook' });
    await insertChannel(t.database, { url: fallback.url, name: 'Default', isDefault: true });
  });
  afterAll(async () => {
    await t.stop();
    await Promise.all([target.close(), receiver.close(), fallback.close()]);
  });

  it('posts monitor.down when a DOWN is confirmed and monitor.up when it recovers, in that order', async () => {
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name: 'Checkout',
      url: `${target.url}/ok`,
      retries: 1,
      interval: 60,
      timeout: 5,
      // Not the default channel: this monitor alerts through the hook alone.
      channelIds: [],
    });
    const id = Monitor.parse(created.body).id;
    await linkChannel(t.database, id, hook);
    await expect
      .poll(async () => (await t.inject(`/api/v1/monitors/${id}`)).json().status)
      .toBe('up');

    target.setMode('down');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    const [down] = await receiver.waitFor((got) => got.some((r) => r.kind === 'monitor.down'));
    expect(down).toMatchObject({ kind: 'monitor.down', monitorId: id });

    target.setMode('normal');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    const got = await receiver.waitFor((all) => all.some((r) => r.kind === 'monitor.up'));
    expect(got.map((r) => r.kind)).toEqual(['monitor.down', 'monitor.up']);
    expect(fallback.delivered()).toEqual([]);
    // The notifier records a send once the receiver has answered: a moment after it got it.
    await expect
      .poll(async () =>
        (await outbox(t.database))
          .filter((r) => r.orderKey === `m:${id}`)
          .map((r) => [r.kind, r.state]),
      )
      .toEqual([
        ['monitor.down', 'sent'],
        ['monitor.up', 'sent'],
      ]);
  });

  it('announces declared incidents, their updates and their resolution to the monitors’ channels', async () => {
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name: 'Search',
      url: `${target.url}/ok`,
      interval: 3600,
      channelIds: [],
    });
    const monitorId = Monitor.parse(created.body).id;
    await linkChannel(t.database, monitorId, hook);
    const incident = await post(t, '/api/v1/incidents', {
      title: 'Search is slow',
      message: 'Looking into it',
      monitorIds: [monitorId],
    });
    const incidentId = (incident.body as { id: number }).id;
    await post(t, `/api/v1/incidents/${incidentId}/updates`, {
      state: 'identified',
      message: 'An index is rebuilding',
    });
    await post(t, `/api/v1/incidents/${incidentId}/updates`, {
      state: 'resolved',
      message: 'Fast again',
    });
    const got = await receiver.waitFor(
      (all) => all.filter((r) => r.incidentId === incidentId).length === 3,
    );
    expect(got.filter((r) => r.incidentId === incidentId).map((r) => r.kind)).toEqual([
      'incident.created',
      'incident.updated',
      'incident.resolved',
    ]);
    const rows = (await outbox(t.database)).filter((r) => r.orderKey === `i:${incidentId}`);
    expect(rows.map((r) => r.event.incident?.message)).toEqual([
      'Looking into it',
      'An index is rebuilding',
      'Fast again',
    ]);
    expect(fallback.delivered()).toEqual([]);
  });

  it('sends an incident that names no monitor to the default channels', async () => {
    const incident = await post(t, '/api/v1/incidents', {
      title: 'Email delays',
      message: 'Our mail provider is slow',
    });
    const incidentId = (incident.body as { id: number }).id;
    const [got] = await fallback.waitFor((all) => all.length === 1);
    expect(got).toMatchObject({ kind: 'incident.created', incidentId });
  });
});
