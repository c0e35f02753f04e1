import { Monitor } from '@pagewatch/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertReceiver, type AlertReceiver } from '../fixtures/alert-receiver.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { insertChannel } from '../support/outbox.js';

async function put(t: TestApp, url: string, body: unknown) {
  const res = await fetch(`${t.url}${url}`, {
    method: 'PUT',
    headers: { ...t.owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

interface Sent {
  event: { kind: string; group?: { label: string; members: { id: number }[] } | null };
  title: string;
}
const sent = (r: AlertReceiver) => r.delivered().map((d) => d.body as Sent);

/**
 * Issue 18 item 7 with real checks and two real webhook receivers: alerts of monitors that
 * share a tag or a dependency root within the window become one message per channel.
 */
describe.each(engines)('alert grouping on %s', (engine) => {
  let t: TestApp;
  let rack: TargetServer;
  let hall: TargetServer;
  let uplink: TargetServer;
  let team: AlertReceiver;
  let ops: AlertReceiver;
  let channels: number[];

  beforeAll(async () => {
    [rack, hall, uplink] = await Promise.all([
      startTargetServer(),
      startTargetServer(),
      startTargetServer(),
    ]);
    [team, ops] = await Promise.all([startAlertReceiver(), startAlertReceiver()]);
    t = await startTestApp({
      engine,
      scheduler: true,
      listen: true,
      alertGroups: { pollMs: 200 },
      notifier: { pollMs: 200 },
    });
    channels = [
      await insertChannel(t.database, { url: team.url, name: 'Team' }),
      await insertChannel(t.database, { url: ops.url, name: 'Ops' }),
    ];
  });
  afterAll(async () => {
    await t.stop();
    await Promise.all([rack, hall, uplink, team, ops].map((s) => s.close()));
  });

  async function monitor(name: string, target: TargetServer): Promise<number> {
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name,
      url: `${target.url}/ok`,
      retries: 0,
      interval: 3600,
      timeout: 5,
      channelIds: channels,
    });
    expect(created.status).toBe(201);
    return Monitor.parse(created.body).id;
  }
  const statusOf = async (id: number) => (await t.inject(`/api/v1/monitors/${id}`)).json().status;
  const allAre = async (ids: number[], status: string) => {
    for (const id of ids) {
      await expect.poll(() => statusOf(id), { timeout: 15_000 }).toBe(status);
    }
  };
  const checkAll = (ids: number[]) =>
    Promise.all(ids.map((id) => post(t, `/api/v1/monitors/${id}/check-now`)));

  it('50 monitors of one tag failing within 10 s give 1 message per channel, and 1 recovery', async () => {
    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, i) => monitor(`Rack 7 host ${i + 1}`, rack)),
    );
    ids.sort((a, b) => a - b);
    const grouped = await Promise.all(
      ids.map((id) =>
        put(t, `/api/v1/monitors/${id}/parents`, {
          parentIds: [],
          grouping: { tag: 'rack-7', windowS: 10 },
        }),
      ),
    );
    expect(grouped.map((r) => r.status)).toEqual(ids.map(() => 200));
    await checkAll(ids);
    await allAre(ids, 'up');
    const before = { team: team.delivered().length, ops: ops.delivered().length };

    rack.setMode('down');
    await checkAll(ids);
    await allAre(ids, 'down');
    // What one message rests on: the 50 flips fell within the 10 s window. Read from the
    // stored flips, not the test's clock, which also counts the polling above.
    const span = await sql<{ first: number; last: number }>`
      select min(at) as first, max(at) as last from status_flips
      where to_status = 'down' and monitor_id in (${sql.join(ids)})`.execute(t.database.db);
    const { first, last } = span.rows[0]!;
    expect(Number(last) - Number(first)).toBeLessThan(10_000);
    for (const r of [team, ops]) {
      await r.waitFor((got) => got.length > (r === team ? before.team : before.ops), 30_000);
    }
    // The window is over and flushed: nothing more is coming for the outage.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const [r, n] of [
      [team, before.team],
      [ops, before.ops],
    ] as const) {
      const got = sent(r).slice(n);
      expect(got).toHaveLength(1);
      expect(got[0]!.event.kind).toBe('monitor.down');
      expect(got[0]!.event.group!.members.map((m) => m.id).sort((a, b) => a - b)).toEqual(ids);
      expect(got[0]!.title).toMatch(/^50 monitors down: Rack 7 host \d+, .* and 30 more$/);
    }

    rack.setMode('normal');
    await checkAll(ids);
    await allAre(ids, 'up');
    for (const [r, n] of [
      [team, before.team + 1],
      [ops, before.ops + 1],
    ] as const) {
      await r.waitFor((got) => got.length > n, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const got = sent(r).slice(n);
      expect(got).toHaveLength(1);
      expect(got[0]!.event.kind).toBe('monitor.up');
      expect(got[0]!.event.group!.members).toHaveLength(50);
      expect(got[0]!.title).toMatch(/^50 monitors up again: /);
    }
  }, 60_000);

  it('children failing before their parent join the parent’s message: 1 message per channel', async () => {
    const parent = await monitor('Hall switch', uplink);
    const children: number[] = [];
    for (let i = 1; i <= 10; i++) children.push(await monitor(`Hall host ${i}`, hall));
    await put(t, `/api/v1/monitors/${parent}/parents`, {
      parentIds: [],
      grouping: { tag: null, windowS: 10 },
    });
    for (const id of children) {
      await put(t, `/api/v1/monitors/${id}/parents`, {
        parentIds: [parent],
        grouping: { tag: null, windowS: 10 },
      });
    }
    await allAre([parent, ...children], 'up');
    const before = { team: team.delivered().length, ops: ops.delivered().length };
    // The hosts are checked first and fail: nothing holds them yet; then the switch.
    hall.setMode('down');
    uplink.setMode('down');
    await checkAll(children.slice(0, 5));
    await allAre(children.slice(0, 5), 'down');
    await checkAll([parent]);
    await allAre([parent], 'down');
    await checkAll(children.slice(5));
    await allAre(children.slice(5), 'down');
    for (const [r, n] of [
      [team, before.team],
      [ops, before.ops],
    ] as const) {
      await r.waitFor((got) => got.length > n, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const got = sent(r).slice(n);
      expect(got).toHaveLength(1);
      // The early hosts and the switch; the later hosts were held by the down switch.
      expect(got[0]!.event.group!.members.map((m) => m.id).sort((a, b) => a - b)).toEqual(
        [parent, ...children.slice(0, 5)].sort((a, b) => a - b),
      );
      expect(got[0]!.event.group!.label).toBe('behind Hall switch');
    }
  }, 60_000);
});
