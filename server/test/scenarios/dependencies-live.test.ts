import { HeldMonitors, Monitor, MonitorDependencies } from '@pagewatch/contract';
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

async function put(t: TestApp, url: string, body: unknown) {
  const res = await fetch(`${t.url}${url}`, {
    method: 'PUT',
    headers: { ...t.owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/**
 * Issue 18 item 6 with real checks and a real webhook receiver: while a parent is down its
 * children are checked and recorded but not announced; recovery always flows.
 */
describe.each(engines)('monitor dependencies on %s', (engine) => {
  let t: TestApp;
  let uplink: TargetServer;
  let service: TargetServer;
  let receiver: AlertReceiver;
  let hook: number;

  beforeAll(async () => {
    uplink = await startTargetServer();
    service = await startTargetServer();
    receiver = await startAlertReceiver();
    // Grouping (ADR 42) holds a parent's and its children's alerts for a window: 1 s here.
    t = await startTestApp({ engine, scheduler: true, listen: true, alertGroups: { pollMs: 200 } });
    hook = await insertChannel(t.database, { url: receiver.url, name: 'Team hook' });
  });
  afterAll(async () => {
    await t.stop();
    await Promise.all([uplink.close(), service.close(), receiver.close()]);
  });

  async function monitor(name: string, target: TargetServer): Promise<number> {
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name,
      url: `${target.url}/ok`,
      retries: 0,
      interval: 3600,
      timeout: 5,
      channelIds: [hook],
    });
    expect(created.status).toBe(201);
    const id = Monitor.parse(created.body).id;
    await put(t, `/api/v1/monitors/${id}/parents`, {
      parentIds: [],
      grouping: { tag: null, windowS: 1 },
    });
    return id;
  }
  /** The monitors a message is about: its members when grouping made it (ADR 42). */
  const about = (r: Received): number[] => {
    const e = (
      r.body as {
        event: { monitor: { id: number } | null; group?: { members: { id: number }[] } | null };
      }
    ).event;
    return e.group ? e.group.members.map((m) => m.id) : e.monitor ? [e.monitor.id] : [];
  };
  const alertsOf = (ids: number[]) =>
    receiver.delivered().filter((r) => about(r).some((id) => ids.includes(id)));
  const got = (kind: string, id: number) => (all: Received[]) =>
    all.some((r) => r.kind === kind && about(r).includes(id));
  const statusOf = async (id: number) => (await t.inject(`/api/v1/monitors/${id}`)).json().status;
  /** Its first check (right after creation) found it up; no check of it is in flight. */
  const settledUp = (id: number) => expect.poll(() => statusOf(id), { timeout: 10_000 }).toBe('up');
  async function checkUntil(id: number, status: string) {
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await expect.poll(() => statusOf(id), { timeout: 10_000 }).toBe(status);
  }

  it('refuses a dependency cycle and names it', async () => {
    const a = await monitor('Core switch', uplink);
    const b = await monitor('Rack 4 switch', uplink);
    const c = await monitor('Storage box', uplink);
    expect((await put(t, `/api/v1/monitors/${b}/parents`, { parentIds: [a] })).status).toBe(200);
    expect((await put(t, `/api/v1/monitors/${c}/parents`, { parentIds: [b] })).status).toBe(200);
    const loop = await put(t, `/api/v1/monitors/${a}/parents`, { parentIds: [c] });
    expect(loop.status).toBe(400);
    expect(loop.body.errors[0]).toMatchObject({ path: 'parentIds', code: 'dependency_cycle' });
    expect(loop.body.errors[0].message).toBe(
      `Dependency cycle: "Core switch" (#${a}) → "Storage box" (#${c}) → "Rack 4 switch" (#${b}) → "Core switch" (#${a})`,
    );
    const self = await put(t, `/api/v1/monitors/${a}/parents`, { parentIds: [a] });
    expect(self.status).toBe(400);
    expect(self.body.errors[0].code).toBe('dependency_cycle');
    const unknown = await put(t, `/api/v1/monitors/${a}/parents`, { parentIds: [999_999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toBe('No monitor has id 999999');
    const deps = MonitorDependencies.parse(
      (await t.inject(`/api/v1/monitors/${b}/parents`)).json(),
    );
    expect(deps.parents.map((p) => p.id)).toEqual([a]);
    expect(deps.children.map((p) => p.id)).toEqual([c]);
    // Nothing was stored by the refused writes.
    const stillNone = MonitorDependencies.parse(
      (await t.inject(`/api/v1/monitors/${a}/parents`)).json(),
    );
    expect(stillNone.parents).toEqual([]);
  });

  it('a parent outage sends 0 child alerts; the children keep being recorded and their recovery flows', async () => {
    const parent = await monitor('Uplink', uplink);
    const early = await monitor('Mail (failed first)', service);
    const children = [await monitor('Web', service), await monitor('API', service)];
    for (const child of [early, ...children]) {
      const res = await put(t, `/api/v1/monitors/${child}/parents`, { parentIds: [parent] });
      expect(res.status).toBe(200);
    }
    for (const id of [parent, early, ...children]) await settledUp(id);

    // One child fails before its parent: it is announced (nothing to hold it yet).
    service.setMode('down');
    await checkUntil(early, 'down');
    await receiver.waitFor(got('monitor.down', early));

    uplink.setMode('down');
    await checkUntil(parent, 'down');
    await receiver.waitFor(got('monitor.down', parent));
    for (const id of children) await checkUntil(id, 'down');
    const held = HeldMonitors.parse((await t.inject('/api/v1/monitors/held')).json());
    expect(held.items.filter((h) => children.includes(h.monitorId))).toEqual(
      children.map((monitorId) => ({ monitorId, parent: { id: parent, name: 'Uplink' } })),
    );
    // Recorded: each child has its failing result and its DOWN flip.
    for (const id of children) {
      const m = (await t.inject(`/api/v1/monitors/${id}`)).json();
      expect(m.lastCheck.outcome).toBe('down');
    }
    // Held: nothing queued for them, nothing received.
    const queued = (await outbox(t.database)).filter((r) =>
      children.some((id) => r.orderKey === `m:${id}`),
    );
    expect(queued).toEqual([]);
    expect(alertsOf(children)).toEqual([]);

    // Everything recovers: the announced ones get their recovery, the held ones had nothing to
    // recover from.
    uplink.setMode('normal');
    service.setMode('normal');
    await checkUntil(parent, 'up');
    for (const id of [early, ...children]) await checkUntil(id, 'up');
    await receiver.waitFor((all) => [parent, early].every((id) => got('monitor.up', id)(all)));
    expect(alertsOf([early]).map((r) => r.kind)).toEqual(['monitor.down', 'monitor.up']);
    expect(alertsOf(children)).toEqual([]);
  });

  it('a child still down after its parent came back is announced at its next check', async () => {
    const parent = await monitor('Router', uplink);
    const child = await monitor('Wiki', service);
    await put(t, `/api/v1/monitors/${child}/parents`, { parentIds: [parent] });
    await settledUp(parent);
    await settledUp(child);
    uplink.setMode('down');
    service.setMode('down');
    await checkUntil(parent, 'down');
    await checkUntil(child, 'down');
    expect(alertsOf([child])).toEqual([]);
    uplink.setMode('normal');
    await checkUntil(parent, 'up');
    await post(t, `/api/v1/monitors/${child}/check-now`);
    await receiver.waitFor(got('monitor.down', child));
    service.setMode('normal');
    await checkUntil(child, 'up');
    await receiver.waitFor(got('monitor.up', child));
    expect(alertsOf([child]).map((r) => r.kind)).toEqual(['monitor.down', 'monitor.up']);
  });
});
