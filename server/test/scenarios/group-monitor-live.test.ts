import { HeldMonitors, Monitor, PublicStatusPage } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAlertReceiver,
  type AlertReceiver,
  type Received,
} from '../fixtures/alert-receiver.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { insertChannel, outbox } from '../support/outbox.js';
import { insertStatusPage } from '../support/status-pages.js';

async function put(t: TestApp, url: string, body: unknown) {
  const res = await fetch(`${t.url}${url}`, {
    method: 'PUT',
    headers: { ...t.owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/**
 * Issue 18 item 8 with real HTTP members and a real webhook receiver: a group monitor's
 * status follows its members by its rule, and its flips alert like any monitor's (ADR 47).
 */
describe.each(engines)('group monitors on %s', (engine) => {
  let t: TestApp;
  let web: TargetServer;
  let api: TargetServer;
  let receiver: AlertReceiver;
  let hook: number;

  beforeAll(async () => {
    web = await startTargetServer();
    api = await startTargetServer();
    receiver = await startAlertReceiver();
    t = await startTestApp({ engine, scheduler: true, listen: true, alertGroups: { pollMs: 200 } });
    hook = await insertChannel(t.database, { url: receiver.url, name: 'Team hook' });
  });
  afterAll(async () => {
    await t.stop();
    await Promise.all([web.close(), api.close(), receiver.close()]);
  });

  /** Alerts are grouped within 1 s here (ADR 42's default window is 2 minutes). */
  const shortWindow = (id: number) =>
    put(t, `/api/v1/monitors/${id}/parents`, {
      parentIds: [],
      grouping: { tag: null, windowS: 1 },
    });
  async function member(
    name: string,
    target: TargetServer,
    channelIds: number[] = [],
  ): Promise<number> {
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name,
      url: `${target.url}/ok`,
      retries: 0,
      interval: 3600,
      timeout: 5,
      channelIds,
    });
    expect(created.status).toBe(201);
    const id = Monitor.parse(created.body).id;
    await shortWindow(id);
    return id;
  }
  async function group(name: string, body: Record<string, unknown>): Promise<number> {
    const created = await post(t, '/api/v1/monitors', {
      type: 'group',
      name,
      interval: 3600,
      retries: 0,
      channelIds: [hook],
      ...body,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = Monitor.parse(created.body).id;
    await shortWindow(id);
    return id;
  }
  const statusOf = async (id: number) => (await t.inject(`/api/v1/monitors/${id}`)).json().status;
  async function checkUntil(id: number, status: string) {
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await expect.poll(() => statusOf(id), { timeout: 10_000 }).toBe(status);
  }
  const about = (r: Received): number[] => {
    const e = (
      r.body as {
        event: { monitor: { id: number } | null; group?: { members: { id: number }[] } | null };
      }
    ).event;
    return e.group ? e.group.members.map((m) => m.id) : e.monitor ? [e.monitor.id] : [];
  };
  const got = (kind: string, id: number) => (all: Received[]) =>
    all.some((r) => r.kind === kind && about(r).includes(id));
  /** Without a check-now: far sooner than the groups' 300 s interval (addendum to ADR 47). */
  const follows = (id: number, status: string) =>
    expect.poll(() => statusOf(id), { timeout: 20_000, interval: 200 }).toBe(status);

  it('refuses an unknown member, the group itself and a cycle of groups, naming the cycle', async () => {
    const a = await member('Edge A', web);
    const unknown = await post(t, '/api/v1/monitors', {
      type: 'group',
      name: 'Ghosts',
      members: [a, 999_999],
    });
    expect(unknown.status).toBe(400);
    expect((unknown.body as { errors: unknown[] }).errors[0]).toMatchObject({
      path: 'members',
      message: 'No monitor has id 999999',
    });
    const outer = await group('Outer', { members: [a] });
    const inner = await group('Inner', { members: [outer] });
    const self = await t.inject(`/api/v1/monitors/${outer}`);
    const replace = async (id: number, members: number[], name: string) => {
      const res = await fetch(`${t.url}/api/v1/monitors/${id}`, {
        method: 'PUT',
        headers: { ...t.owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'group', name, interval: 3600, members }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    expect(self.statusCode).toBe(200);
    const itself = await replace(outer, [a, outer], 'Outer');
    expect(itself.status).toBe(400);
    expect(itself.body.errors[0]).toMatchObject({ path: 'members', code: 'group_cycle' });
    const loop = await replace(outer, [a, inner], 'Outer');
    expect(loop.status).toBe(400);
    expect(loop.body.errors[0]).toMatchObject({ path: 'members', code: 'group_cycle' });
    expect(loop.body.errors[0].message).toBe(
      `Group cycle: "Outer" (#${outer}) → "Inner" (#${inner}) → "Outer" (#${outer})`,
    );
    // Schema limits: at least one member, each once.
    const empty = await post(t, '/api/v1/monitors', { type: 'group', name: 'E', members: [] });
    expect(empty.status).toBe(400);
    const twice = await post(t, '/api/v1/monitors', { type: 'group', name: 'T', members: [a, a] });
    expect(twice.status).toBe(400);
  });

  it('flips by its rule as members go down and come back, and alerts like any monitor', async () => {
    const w = await member('Web', web);
    const p = await member('API', api);
    await expect.poll(() => statusOf(w), { timeout: 10_000 }).toBe('up');
    await expect.poll(() => statusOf(p), { timeout: 10_000 }).toBe('up');
    const anyDown = await group('Shop (any down)', { members: [w, p], rule: 'any_down' });
    const half = await group('Shop (50 % up)', {
      members: [w, p],
      rule: 'percent_up',
      minUpPercent: 50,
    });
    await checkUntil(anyDown, 'up');
    await checkUntil(half, 'up');

    web.setMode('down');
    await checkUntil(w, 'down');
    await checkUntil(anyDown, 'down');
    await checkUntil(half, 'degraded');
    const detail = (await t.inject(`/api/v1/monitors/${anyDown}`)).json();
    expect(detail.lastCheck).toMatchObject({
      outcome: 'down',
      errorCode: 'group_members_down',
      errorMessage: '1 of 2 members down: Web',
    });
    await receiver.waitFor(got('monitor.down', anyDown));

    // A group is a parent like any monitor (ADR 41): a child behind it is held, not announced.
    const child = await member('Checkout page', api);
    await expect.poll(() => statusOf(child), { timeout: 10_000 }).toBe('up');
    const linked = await put(t, `/api/v1/monitors/${child}/parents`, { parentIds: [anyDown] });
    expect(linked.status).toBe(200);

    api.setMode('down');
    await checkUntil(p, 'down');
    await checkUntil(half, 'down');
    await checkUntil(child, 'down');
    const held = HeldMonitors.parse((await t.inject('/api/v1/monitors/held')).json());
    expect(held.items).toContainEqual({
      monitorId: child,
      parent: { id: anyDown, name: 'Shop (any down)' },
    });

    // A paused member is left out: with API paused, the share is of Web alone.
    web.setMode('normal');
    await checkUntil(w, 'up');
    expect((await post(t, `/api/v1/monitors/${p}/pause`)).status).toBeLessThan(300);
    await checkUntil(anyDown, 'up');
    await checkUntil(half, 'up');
    await receiver.waitFor(got('monitor.up', anyDown));
  });

  it('follows a member\u2019s flip at once, level by level, on its status page and as a parent', async () => {
    web.setMode('normal');
    api.setMode('normal');
    const cart = await member('Cart', web);
    const search = await member('Search', api);
    // Behind the group (ADR 41), alerting to the hook: held while the group is down.
    const child = await member('Payment page', api, [hook]);
    for (const id of [cart, search, child])
      await expect.poll(() => statusOf(id), { timeout: 10_000 }).toBe('up');
    const store = await group('Storefront', { members: [cart, search], interval: 300 });
    const site = await group('Whole site', { members: [store], interval: 300 });
    await checkUntil(store, 'up');
    await checkUntil(site, 'up');
    expect((await put(t, `/api/v1/monitors/${child}/parents`, { parentIds: [store] })).status).toBe(
      200,
    );
    const slug = `groups-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      sections: [{ title: 'Shop', components: [{ monitorId: store, displayName: 'Shop' }] }],
    });
    const shown = async () => {
      const res = await t.inject({
        url: `/status/${slug}/index.json`,
        headers: { authorization: '' },
      });
      return PublicStatusPage.parse(res.json()).sections[0]?.components[0]?.status;
    };
    expect(await shown()).toBe('up');

    // Only the member is checked: both groups follow on their own, then the page.
    web.setMode('down');
    await checkUntil(cart, 'down');
    await follows(store, 'down');
    await follows(site, 'down');
    await expect.poll(shown, { timeout: 10_000 }).toBe('down');
    await receiver.waitFor(got('monitor.down', store));
    await receiver.waitFor(got('monitor.down', site));

    // The child fails while the group is down: recorded and held, nothing queued or sent.
    api.setMode('down');
    await checkUntil(child, 'down');
    const held = HeldMonitors.parse((await t.inject('/api/v1/monitors/held')).json());
    expect(held.items).toContainEqual({
      monitorId: child,
      parent: { id: store, name: 'Storefront' },
    });
    expect((await outbox(t.database)).filter((r) => r.orderKey === `m:${child}`)).toEqual([]);

    // Recovery follows the same way.
    web.setMode('normal');
    api.setMode('normal');
    await checkUntil(cart, 'up');
    await follows(store, 'up');
    await follows(site, 'up');
    await expect.poll(shown, { timeout: 10_000 }).toBe('up');
    await checkUntil(child, 'up');
    await receiver.waitFor(got('monitor.up', store));
    expect(receiver.delivered().filter((r) => about(r).includes(child))).toEqual([]);
    // Each group was checked a handful of times (on save, by hand, per flip), not in a loop.
    const checks = async (id: number) =>
      (await t.inject(`/api/v1/monitors/${id}/checks?limit=50`)).json<{ items: unknown[] }>().items
        .length;
    expect(await checks(store)).toBeLessThanOrEqual(5);
    expect(await checks(site)).toBeLessThanOrEqual(5);
  });
});
