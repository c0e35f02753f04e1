import { Monitor, NotificationChannel, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertReceiver, type AlertReceiver } from '../fixtures/alert-receiver.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { outbox } from '../support/outbox.js';

const HOUR = 3_600_000;
/** The app's clock: real time plus what the test fast-forwards (to the end of a window). */
let skipped = 0;
const clock = { now: () => Date.now() + skipped };
const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
const downs = (r: AlertReceiver, monitorId: number) =>
  r.delivered().filter((x) => x.kind === 'monitor.down' && x.monitorId === monitorId);

/**
 * A channel's quiet hours (issue 18 item 5, ADR 68) end to end: real checks fail, the real
 * notifier posts to loopback HTTP receivers. During the channel's window a warning monitor's
 * DOWN waits for the window's end (or goes to the reroute channel at once); a critical
 * monitor's DOWN goes through at once.
 */
describe.each(engines)('channel quiet hours on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  let night: AlertReceiver;
  let ops: AlertReceiver;
  let mail: AlertReceiver;
  let quietEnd: number;

  beforeAll(async () => {
    skipped = 0;
    target = await startTargetServer();
    [night, ops, mail] = await Promise.all([
      startAlertReceiver(),
      startAlertReceiver(),
      startAlertReceiver(),
    ]);
    t = await startTestApp({
      engine,
      scheduler: true,
      listen: true,
      clock,
      notifier: { pollMs: 100 },
    });
    quietEnd = clock.now() + 2 * HOUR;
  }, 20_000);
  afterAll(async () => {
    await t?.stop();
    await target?.close();
    await Promise.all([night, ops, mail].map((r) => r?.close()));
  });

  /** A window every day from an hour ago until two hours from now, in UTC. */
  const windowNow = () => ({
    days: [0, 1, 2, 3, 4, 5, 6],
    from: hhmm(clock.now() - HOUR),
    to: hhmm(quietEnd),
    timeZone: 'UTC',
  });

  async function channel(name: string, url: string, quietHours?: Record<string, unknown>) {
    const res = await post(t, '/api/v1/notification-channels', {
      kind: 'webhook',
      name,
      config: { url },
      ...(quietHours ? { quietHours } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return NotificationChannel.parse(res.body);
  }

  async function monitor(name: string, severity: string, channelIds: number[]) {
    const res = await post(t, '/api/v1/monitors', {
      type: 'http',
      name,
      url: `${target.url}/ok`,
      interval: 3600,
      timeout: 5,
      alerts: { severity },
      channelIds,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Monitor.parse(res.body).id;
  }

  async function goDown(ids: number[]) {
    target.setMode('normal');
    for (const id of ids)
      await expect
        .poll(async () => (await t.inject(`/api/v1/monitors/${id}`)).json().status, {
          timeout: 15_000,
        })
        .toBe('up');
    target.setMode('down');
    for (const id of ids) await post(t, `/api/v1/monitors/${id}/check-now`);
  }

  it('holds a warning to the end of the window, sends a critical at once, and the warning at the end', async () => {
    const desk = await channel('Night desk', night.url, { windows: [windowNow()] });
    expect(desk.quietHours).toEqual({ windows: [windowNow()], rerouteChannelId: null });
    const warning = await monitor('Reports', 'warning', [desk.id]);
    const critical = await monitor('Payments', 'critical', [desk.id]);
    await goDown([warning, critical]);

    await night.waitFor(() => downs(night, critical).length === 1);
    // The warning is queued, not dropped: due at the end of the window (to the minute).
    await expect
      .poll(async () =>
        (await outbox(t.database)).find(
          (r) => r.kind === 'monitor.down' && r.event.monitor?.id === warning,
        ),
      )
      .toMatchObject({ state: 'queued', channelId: desk.id });
    const held = (await outbox(t.database)).find(
      (r) => r.kind === 'monitor.down' && r.event.monitor?.id === warning,
    )!;
    expect(held.nextAttemptAt! - Math.floor(quietEnd / 60_000) * 60_000).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(downs(night, warning)).toEqual([]);

    // The window ends: the held warning goes out, once.
    skipped = quietEnd - Date.now() + 60_000;
    await night.waitFor(() => downs(night, warning).length === 1, 15_000);
    expect(downs(night, critical)).toHaveLength(1);
    target.setMode('normal');
    skipped = 0;
  }, 60_000);

  it('sends a warning to the reroute channel at once during the window; a critical stays', async () => {
    quietEnd = clock.now() + 2 * HOUR;
    const fallbackMail = await channel('Mail digest', mail.url);
    const pager = await channel('Ops pager', ops.url, {
      windows: [windowNow()],
      rerouteChannelId: fallbackMail.id,
    });
    const warning = await monitor('Search', 'warning', [pager.id]);
    const critical = await monitor('Login', 'critical', [pager.id]);
    await goDown([warning, critical]);

    await ops.waitFor(() => downs(ops, critical).length === 1);
    await mail.waitFor(() => downs(mail, warning).length === 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(downs(ops, warning)).toEqual([]);
    expect(downs(mail, critical)).toEqual([]);
    // The rerouted message says where it was meant to go and why; the critical one does not.
    const rerouted = downs(mail, warning)[0]!.body as { title: string; text: string; event: any };
    expect(rerouted.title).toMatch(/^\[Rerouted\] /);
    expect(rerouted.text.split('\n')[0]).toBe(
      'Rerouted: sent here from the channel Ops pager because of its quiet hours.',
    );
    expect(rerouted.event.rerouted).toEqual({
      from: [{ channelId: pager.id, channelName: 'Ops pager' }],
    });
    const direct = downs(ops, critical)[0]!.body as { title: string; text: string; event: any };
    expect(direct.title).not.toMatch(/Rerouted/);
    expect(direct.text).not.toMatch(/Rerouted/);
    expect(direct.event.rerouted).toBeUndefined();

    // A monitor that alerts the reroute target itself too: one message there, its own, so
    // without the note.
    const both = await monitor('Catalog', 'warning', [pager.id, fallbackMail.id]);
    await goDown([both]);
    await mail.waitFor(() => downs(mail, both).length === 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(downs(mail, both)).toHaveLength(1);
    expect(downs(ops, both)).toEqual([]);
    const own = downs(mail, both)[0]!.body as { title: string; event: any };
    expect(own.title).not.toMatch(/Rerouted/);
    expect(own.event.rerouted).toBeUndefined();
    target.setMode('normal');
  }, 60_000);

  it('refuses a reroute to the channel itself or to a channel that does not exist', async () => {
    const a = await channel('Hook Q', night.url);
    const self = await t.inject({
      method: 'PUT',
      url: `/api/v1/notification-channels/${a.id}`,
      payload: {
        kind: 'webhook',
        name: 'Hook Q',
        config: { url: night.url },
        quietHours: { windows: [windowNow()], rerouteChannelId: a.id },
      },
    });
    expect(self.statusCode).toBe(400);
    expect(Problem.parse(self.json()).errors).toEqual([
      expect.objectContaining({ path: 'quietHours.rerouteChannelId', code: 'reroute_self' }),
    ]);
    const missing = await post(t, '/api/v1/notification-channels', {
      kind: 'webhook',
      name: 'Hook R',
      config: { url: night.url },
      quietHours: { windows: [], rerouteChannelId: 99_999 },
    });
    expect(missing.status).toBe(400);
    // A channel removed stops being anyone's reroute target.
    const b = await channel('Hook S', night.url, {
      windows: [windowNow()],
      rerouteChannelId: a.id,
    });
    expect(b.quietHours.rerouteChannelId).toBe(a.id);
    expect(
      (await t.inject({ method: 'DELETE', url: `/api/v1/notification-channels/${a.id}` }))
        .statusCode,
    ).toBe(204);
    const after = NotificationChannel.parse(
      (await t.inject(`/api/v1/notification-channels/${b.id}`)).json(),
    );
    expect(after.quietHours).toEqual({ windows: [windowNow()], rerouteChannelId: null });
  });
});
