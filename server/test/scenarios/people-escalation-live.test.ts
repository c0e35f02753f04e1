import {
  ContactMethodCreated,
  Escalation,
  EscalationPolicy,
  Monitor,
  OnCallNow,
  OnCallSchedule,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietUntil } from '../../src/domain/quiet-hours/index.js';
import { startAlertReceiver, type AlertReceiver } from '../fixtures/alert-receiver.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { insertChannel } from '../support/outbox.js';

const MIN = 60_000;
const PUBLIC_URL = 'https://pagewatch.example';
let skipped = 0;
const escalationClock = { now: () => Date.now() + skipped };

const kindsFor = (r: AlertReceiver, kind: string, monitorId: number) =>
  r.delivered().filter((x) => x.kind === kind && x.monitorId === monitorId);

/** A request as a person (their own API key), over real HTTP. */
async function as(t: TestApp, who: Identity, method: string, url: string, body?: unknown) {
  const res = await fetch(`${t.url}${url}`, {
    method,
    headers: {
      ...who.headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (res.status === 204 ? null : await res.json()) as any;
  return { status: res.status, body: answer };
}

/**
 * Issue 18's "done when", for people (ADR 60): a team of four, two of them on a weekly
 * rotation with a backup rotation one week apart; critical outages go to whoever is on call
 * through their verified webhook contact method (a real receiver on loopback), and to the other
 * ten minutes later (fake escalation clock); recovery reaches both with the outage's length and
 * who acknowledged; a warning to a person in their quiet hours waits; critical breaks through.
 */
describe.each(engines)('people as escalation targets on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  let team: Identity[];
  const receivers: AlertReceiver[] = [];
  let fallback: AlertReceiver;
  let primaryId: number;
  let policyId: number;

  /** Adds a webhook contact method for `who` and verifies it with the code it received. */
  async function verifiedWebhook(who: Identity, r: AlertReceiver): Promise<number> {
    const created = await as(t, who, 'POST', '/api/v1/me/contact-methods', {
      kind: 'webhook',
      label: 'Phone bridge',
      config: { url: r.url },
    });
    expect(created.status).toBe(201);
    const c = ContactMethodCreated.parse(created.body);
    expect(c).toMatchObject({ codeSent: true, method: { verifiedAt: null } });
    const [msg] = await r.waitFor((all) => all.length > 0);
    const code = /verification code: (\d{6})/.exec((msg!.body as { title: string }).title)![1]!;
    const wrong = await as(t, who, 'POST', `/api/v1/me/contact-methods/${c.method.id}/verify`, {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatchObject({ path: 'code', code: 'wrong' });
    const ok = await as(t, who, 'POST', `/api/v1/me/contact-methods/${c.method.id}/verify`, {
      code,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.verifiedAt).toBeTruthy();
    // Spent: the same code does nothing a second time.
    const again = await as(t, who, 'POST', `/api/v1/me/contact-methods/${c.method.id}/verify`, {
      code,
    });
    expect(again.status).toBe(400);
    return c.method.id;
  }

  beforeAll(async () => {
    target = await startTargetServer();
    for (let i = 0; i < 4; i += 1) receivers.push(await startAlertReceiver());
    fallback = await startAlertReceiver();
    t = await startTestApp({
      engine,
      scheduler: true,
      listen: true,
      config: { publicUrl: PUBLIC_URL },
      notifier: { pollMs: 100 },
      escalation: { pollMs: 100, dueClock: escalationClock },
    });
    team = [
      await t.identity('editor'),
      await t.identity('editor'),
      await t.identity('viewer'),
      await t.identity('viewer'),
    ];
    await insertChannel(t.database, { url: fallback.url, name: 'Ops room', isDefault: true });
    for (let i = 0; i < 3; i += 1) await verifiedWebhook(team[i]!, receivers[i]!);
    // Two people a week each; the backup rotation is the same pair one week apart.
    const layer = (members: number[]) => ({
      name: 'Weekly',
      members,
      startDate: '2026-01-05',
      handoff: '09:00',
      lengthDays: 7,
    });
    const [a, b] = [team[0]!.userId, team[1]!.userId];
    const mk = async (name: string, members: number[]) => {
      const res = await post(t, '/api/v1/oncall-schedules', {
        name,
        timeZone: 'Europe/Berlin',
        layers: [layer(members)],
      });
      expect(res.status).toBe(201);
      return OnCallSchedule.parse(res.body).id;
    };
    primaryId = await mk('Primary', [a, b]);
    const backupId = await mk('Backup', [b, a]);
    const created = await post(t, '/api/v1/escalation-policies', {
      name: 'Web on call',
      steps: [
        { waitMinutes: 0, targets: [{ kind: 'schedule', scheduleId: primaryId }] },
        { waitMinutes: 10, targets: [{ kind: 'schedule', scheduleId: backupId }] },
      ],
    });
    expect(created.status).toBe(201);
    policyId = EscalationPolicy.parse(created.body).id;
    // The web monitors use it through their tag (a monitor's own policy would win).
    const tags = await fetch(`${t.url}/api/v1/escalation-tag-policies`, {
      method: 'PUT',
      headers: { ...t.owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ tag: 'web', policyId }] }),
    });
    expect(tags.status).toBe(200);
  }, 30_000);
  afterAll(async () => {
    await t?.stop();
    await Promise.all([target?.close(), fallback?.close(), ...receivers.map((r) => r.close())]);
  });

  async function monitor(name: string, alerts: Record<string, unknown>, tags: string[] = []) {
    skipped = 0;
    target.setMode('normal');
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name,
      url: `${target.url}/ok`,
      interval: 3600,
      timeout: 5,
      tags,
      alerts,
    });
    expect(created.status).toBe(201);
    const id = Monitor.parse(created.body).id;
    await expect
      .poll(async () => (await t.inject(`/api/v1/monitors/${id}`)).json().status)
      .toBe('up');
    return id;
  }

  const escalationOf = async (id: number) =>
    Escalation.array().parse(
      (await t.inject(`/api/v1/escalations?monitorId=${id}`)).json().items,
    )[0]!;

  it('a critical outage reaches whoever is on call, the other after 10 minutes, and both recover', async () => {
    const now = OnCallNow.parse(
      (await t.inject(`/api/v1/oncall-schedules/${primaryId}/now`)).json(),
    );
    const onCall = team.findIndex((p) => p.userId === now.now?.userId);
    expect(onCall === 0 || onCall === 1).toBe(true);
    const other = 1 - onCall;
    const id = await monitor('Checkout', { severity: 'critical' }, ['web']);
    target.setMode('down');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await receivers[onCall]!.waitFor(
      () => kindsFor(receivers[onCall]!, 'monitor.down', id).length === 1,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(kindsFor(receivers[other]!, 'monitor.down', id)).toEqual([]);
    // The policy routes it: the monitor's own channels stay quiet.
    expect(fallback.delivered().filter((x) => x.monitorId === id)).toEqual([]);

    skipped = 9 * MIN;
    await new Promise((r) => setTimeout(r, 500));
    expect(kindsFor(receivers[other]!, 'monitor.down', id)).toEqual([]);
    skipped = 10 * MIN;
    await receivers[other]!.waitFor(
      () => kindsFor(receivers[other]!, 'monitor.down', id).length === 1,
      10_000,
    );
    const e = await escalationOf(id);
    expect(new Set(e.notifiedUserIds)).toEqual(new Set([team[0]!.userId, team[1]!.userId]));
    expect(e.warnings).toEqual([]);

    // The backup acknowledges from the signed link in their own message: it names them.
    const body = kindsFor(receivers[other]!, 'monitor.down', id)[0]!.body as {
      event: { escalation: { ackUrl: string } };
    };
    const path = body.event.escalation.ackUrl.slice(PUBLIC_URL.length);
    const ack = await t.inject({ method: 'POST', url: path, headers: { authorization: '' } });
    expect(ack.statusCode).toBe(200);
    const people = (await t.inject('/api/v1/users')).json<{
      items: { id: number; name: string; email: string }[];
    }>();
    const person = people.items.find((u) => u.id === team[other]!.userId)!;
    const otherName = person.name || person.email;
    expect((await escalationOf(id)).acknowledgement).toMatchObject({ by: otherName, via: 'link' });
    target.setMode('normal');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    for (const i of [onCall, other]) {
      const [up] = await receivers[i]!.waitFor(
        () => kindsFor(receivers[i]!, 'monitor.up', id).length === 1,
      );
      expect(up).toBeDefined();
      const ev = (
        kindsFor(receivers[i]!, 'monitor.up', id)[0]!.body as {
          event: { outageMs: number; escalation: { acknowledgedBy: string } };
        }
      ).event;
      expect(ev.outageMs).toBeGreaterThanOrEqual(0);
      expect(ev.escalation.acknowledgedBy).toBe(otherName);
    }
    expect(kindsFor(receivers[2]!, 'monitor.down', id)).toEqual([]);
  }, 40_000);

  it("a warning waits for the person's quiet hours; a critical alert breaks through", async () => {
    const cleo = team[2]!;
    // A window around this very moment, every day: "night" for the test's purpose.
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const windows = [
      {
        days: [0, 1, 2, 3, 4, 5, 6],
        from: hhmm(Date.now() - 60 * MIN),
        to: hhmm(Date.now() + 60 * MIN),
        timeZone: 'UTC',
      },
    ];
    const set = await as(t, cleo, 'PUT', '/api/v1/me/quiet-hours', { windows });
    expect(set.status).toBe(200);
    const policy = EscalationPolicy.parse(
      (
        await post(t, '/api/v1/escalation-policies', {
          name: 'Cleo first',
          steps: [{ waitMinutes: 0, targets: [{ kind: 'user', userId: cleo.userId }] }],
        })
      ).body,
    );
    const warn = await monitor('Reports', { severity: 'warning', escalationPolicyId: policy.id });
    const crit = await monitor('Payments', { severity: 'critical', escalationPolicyId: policy.id });
    target.setMode('down');
    const startedAt = Date.now();
    await post(t, `/api/v1/monitors/${warn}/check-now`);
    await post(t, `/api/v1/monitors/${crit}/check-now`);
    await receivers[2]!.waitFor(() => kindsFor(receivers[2]!, 'monitor.down', crit).length === 1);
    // The warning is queued for the end of the window, not dropped and not sent.
    const held = await t.database.db
      .selectFrom('deliveries')
      .select(['state', 'next_attempt_at', 'contact_method_id'])
      .where('monitor_id', '=', warn)
      .where('event_kind', '=', 'monitor.down')
      .execute();
    expect(held).toHaveLength(1);
    expect(held[0]!.state).toBe('queued');
    expect(held[0]!.contact_method_id).not.toBeNull();
    const end = quietUntil(windows, startedAt)!;
    expect(Number(held[0]!.next_attempt_at)).toBeGreaterThan(Date.now());
    expect(Math.abs(Number(held[0]!.next_attempt_at) - end)).toBeLessThan(2 * MIN);
    expect(kindsFor(receivers[2]!, 'monitor.down', warn)).toEqual([]);
  }, 40_000);

  it('a person without a verified method is never a silent drop; deleted people are refused or shown', async () => {
    const dan = team[3]!;
    const policy = EscalationPolicy.parse(
      (
        await post(t, '/api/v1/escalation-policies', {
          name: 'Dan only',
          steps: [{ waitMinutes: 0, targets: [{ kind: 'user', userId: dan.userId }] }],
        })
      ).body,
    );
    const id = await monitor('Wiki', { escalationPolicyId: policy.id });
    target.setMode('down');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await fallback.waitFor(() => kindsFor(fallback, 'monitor.down', id).length === 1);
    const e = await escalationOf(id);
    expect(e.warnings).toEqual([expect.stringMatching(/has no verified contact method/)]);
    const audit = await t.inject('/api/v1/audit?action=escalation.unreachable');
    expect(JSON.stringify(audit.json())).toMatch(/no verified contact method/);

    // A policy naming someone who does not exist is refused, the field named.
    const bad = await post(t, '/api/v1/escalation-policies', {
      name: 'Ghost',
      steps: [{ waitMinutes: 0, targets: [{ kind: 'user', userId: 999_999 }] }],
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: unknown[] }).errors[0]).toMatchObject({
      path: 'steps.0.targets.0.userId',
    });
    // Deleting a person a policy names later: the policy shows the broken step.
    const del = await fetch(`${t.url}/api/v1/users/${dan.userId}`, {
      method: 'DELETE',
      headers: t.owner.headers,
    });
    expect(del.status).toBe(204);
    const after = EscalationPolicy.parse(
      (await t.inject(`/api/v1/escalation-policies/${policy.id}`)).json(),
    );
    expect(after.brokenTargets).toEqual([
      { path: 'steps.0.targets.0.userId', message: expect.stringMatching(/does not exist/) },
    ]);
  }, 40_000);

  it('contact methods are their owner’s: secrets never returned, admins may look', async () => {
    const ben = team[1]!;
    const created = await as(t, ben, 'POST', '/api/v1/me/contact-methods', {
      kind: 'slack',
      config: {},
      secrets: { webhookUrl: `${receivers[1]!.url}?secret-path-123` },
    });
    expect(created.status).toBe(201);
    const mine = await as(t, ben, 'GET', '/api/v1/me/contact-methods');
    expect(JSON.stringify(mine.body)).not.toMatch(/secret-path-123/);
    expect(mine.body.items.at(-1).secretNames).toEqual(['webhookUrl']);
    const someoneElse = await as(
      t,
      team[0]!,
      'DELETE',
      `/api/v1/me/contact-methods/${created.body.method.id}`,
    );
    expect(someoneElse.status).toBe(404);
    const admin = await t.inject(`/api/v1/users/${ben.userId}/contact-methods`);
    expect(admin.statusCode).toBe(200);
    expect(admin.body).not.toMatch(/secret-path-123/);
    expect(admin.json().items).toHaveLength(2);
  }, 20_000);
});
