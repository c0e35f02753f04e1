import { Escalation, EscalationPolicy, IncidentPage, Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ackPath, signAckToken } from '../../src/escalation/ack-link.js';
import { SecretBox } from '../../src/lib/crypto.js';
import { loadSecretKey } from '../../src/lib/secret-key.js';
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
import { SMTP_PASSWORD, SMTP_USER, startSmtpPeer, type SmtpPeer } from '../fixtures/smtp-peer.js';

const MIN = 60_000;
const PUBLIC_URL = 'https://pagewatch.example';
const SECRET = 'escalation-test-secret-0123456789abcdef';

/** The escalation job's clock: real time plus what the test fast-forwards. */
let skipped = 0;
const escalationClock = { now: () => Date.now() + skipped };

const downs = (r: AlertReceiver, monitorId: number) =>
  r.delivered().filter((x) => x.kind === 'monitor.down' && x.monitorId === monitorId);
const ackUrlOf = (r: Received): string | null =>
  (r.body as { event?: { escalation?: { ackUrl?: string | null } } }).event?.escalation?.ackUrl ??
  null;
const escalationOf = (r: Received) =>
  (r.body as { event: { escalation: { id: number; acknowledgedBy: string | null } } }).event
    .escalation;

/**
 * Issue 18 items 2 and 3 end to end: a real check fails, the policy's first step posts to the
 * team's webhook at once, the durable timer posts to the manager's 10 minutes later unless
 * someone acknowledges, and recovery goes to everyone notified, naming who acknowledged.
 */
describe.each(engines)('escalation from live checks on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  let team: AlertReceiver;
  let manager: AlertReceiver;
  let other: AlertReceiver;
  let policyId: number;
  let managerChannel: number;
  let teamChannel: number;
  let smtp: SmtpPeer;

  beforeAll(async () => {
    target = await startTargetServer();
    smtp = await startSmtpPeer({ auth: true });
    [team, manager, other] = await Promise.all([
      startAlertReceiver(),
      startAlertReceiver(),
      startAlertReceiver(),
    ]);
    t = await startTestApp({
      engine,
      scheduler: true,
      listen: true,
      config: { publicUrl: PUBLIC_URL, secret: SECRET },
      notifier: { pollMs: 100 },
      escalation: { pollMs: 100, dueClock: escalationClock },
    });
    teamChannel = await insertChannel(t.database, { url: team.url, name: 'Team' });
    managerChannel = await insertChannel(t.database, { url: manager.url, name: 'Manager' });
    // The monitors' own channel: a policy replaces it for outages.
    await insertChannel(t.database, { url: other.url, name: 'Everyone', isDefault: true });
    const created = await post(t, '/api/v1/escalation-policies', {
      name: 'Critical web',
      steps: [
        { waitMinutes: 0, targets: [{ kind: 'channel', channelId: teamChannel }] },
        { waitMinutes: 10, targets: [{ kind: 'channel', channelId: managerChannel }] },
      ],
    });
    expect(created.status).toBe(201);
    policyId = EscalationPolicy.parse(created.body).id;
  }, 20_000);
  afterAll(async () => {
    await t?.stop();
    await Promise.all([
      target?.close(),
      team?.close(),
      manager?.close(),
      other?.close(),
      smtp?.close(),
    ]);
  });

  async function downMonitor(name: string): Promise<number> {
    skipped = 0;
    target.setMode('normal');
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name,
      url: `${target.url}/ok`,
      interval: 3600,
      timeout: 5,
      alerts: { escalationPolicyId: policyId },
    });
    expect(created.status).toBe(201);
    const id = Monitor.parse(created.body).id;
    await expect
      .poll(async () => (await t.inject(`/api/v1/monitors/${id}`)).json().status)
      .toBe('up');
    target.setMode('down');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await team.waitFor(() => downs(team, id).length === 1);
    return id;
  }

  async function escalationOfMonitor(id: number): Promise<Escalation> {
    const res = await t.inject(`/api/v1/escalations?monitorId=${id}`);
    return Escalation.array().parse(res.json().items)[0]!;
  }

  it('an unacknowledged DOWN reaches the next step when its wait is over, and not before', async () => {
    const id = await downMonitor('Checkout');
    const [first] = downs(team, id);
    expect(ackUrlOf(first!)).toMatch(new RegExp(`^${PUBLIC_URL}/ack/`));
    await new Promise((r) => setTimeout(r, 500));
    expect(downs(manager, id)).toEqual([]);
    expect(other.delivered().filter((x) => x.monitorId === id)).toEqual([]);

    // Nine minutes on, still nothing for the manager; ten minutes on, the second step fires.
    skipped = 9 * MIN;
    await new Promise((r) => setTimeout(r, 500));
    expect(downs(manager, id)).toEqual([]);
    skipped = 10 * MIN;
    const before = Date.now();
    await manager.waitFor(() => downs(manager, id).length === 1, 10_000);
    expect(Date.now() - before).toBeLessThan(5_000);
    expect(downs(team, id)).toHaveLength(1);
    expect((await escalationOfMonitor(id)).notifiedChannelIds).toHaveLength(2);

    // Acknowledged from the web app's API by the owner; the incident timeline says so.
    const e = await escalationOfMonitor(id);
    const ack = await post(t, `/api/v1/escalations/${e.id}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(Escalation.parse(ack.body).acknowledgement).toMatchObject({ via: 'api' });
    const again = await post(t, `/api/v1/escalations/${e.id}/acknowledge`);
    expect(again.status).toBe(409);
    const incidents = IncidentPage.parse(
      (await t.inject(`/api/v1/incidents?state=open&monitorId=${id}`)).json(),
    );
    const incidentId = incidents.items.find((i) => i.monitorId === id)!.id;
    const detail = (await t.inject(`/api/v1/incidents/${incidentId}`)).json<{
      updates: { message: string }[];
    }>();
    expect(detail.updates.map((u) => u.message).join('\n')).toMatch(
      /Acknowledged by .* through the API/,
    );

    // Recovery: everyone who was notified hears it, with who acknowledged.
    target.setMode('normal');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    const [teamUp] = await team.waitFor((all) =>
      all.some((x) => x.kind === 'monitor.up' && x.monitorId === id),
    );
    await manager.waitFor((all) => all.some((x) => x.kind === 'monitor.up' && x.monitorId === id));
    const up = team.delivered().find((x) => x.kind === 'monitor.up' && x.monitorId === id)!;
    expect(teamUp).toBeDefined();
    expect(escalationOf(up).acknowledgedBy).toBeTruthy();
    expect((up.body as { event: { outageMs: number } }).event.outageMs).toBeGreaterThanOrEqual(0);
    expect(other.delivered().filter((x) => x.monitorId === id)).toEqual([]);
  }, 30_000);

  it('an acknowledgement by link stops the escalation; a second click, an expired or a tampered link do nothing', async () => {
    const id = await downMonitor('Search');
    const link = ackUrlOf(downs(team, id)[0]!)!;
    const path = link.slice(PUBLIC_URL.length);
    const e = await escalationOfMonitor(id);

    // Opening the link (what a mail scanner does) only shows the confirm page.
    const page = await t.inject({ url: path, headers: { authorization: '' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<form[^>]*method="post"/);
    expect((await escalationOfMonitor(id)).acknowledgement).toBeNull();

    const tampered = path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const bad = await t.inject({ method: 'POST', url: tampered, headers: { authorization: '' } });
    expect(bad.statusCode).toBe(404);
    const box = new SecretBox(loadSecretKey(SECRET, '/nonexistent'));
    const expired = ackPath(
      signAckToken(box, {
        escalationId: e.id,
        channelId: managerChannel,
        expiresAt: Date.now() - 1,
      }),
    );
    const old = await t.inject({ method: 'POST', url: expired, headers: { authorization: '' } });
    expect(old.statusCode).toBe(410);
    expect((await escalationOfMonitor(id)).acknowledgement).toBeNull();

    const done = await t.inject({ method: 'POST', url: path, headers: { authorization: '' } });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Acknowledged');
    const acked = await escalationOfMonitor(id);
    expect(acked.acknowledgement).toMatchObject({ via: 'link', by: 'a recipient of “Team”' });
    expect(acked.nextDueAt).toBeNull();

    const second = await t.inject({ method: 'POST', url: path, headers: { authorization: '' } });
    expect(second.body).toContain('Nothing to acknowledge');
    expect((await escalationOfMonitor(id)).acknowledgement!.at).toBe(acked.acknowledgement!.at);

    // The manager's step is never due now.
    skipped = 30 * MIN;
    await new Promise((r) => setTimeout(r, 800));
    expect(downs(manager, id)).toEqual([]);
    target.setMode('normal');
  }, 30_000);

  it('a mail through a real SMTP server carries the acknowledgement link, and it works', async () => {
    const channel = await post(t, '/api/v1/notification-channels', {
      kind: 'email',
      name: 'On-call mail',
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        security: 'starttls',
        ignoreTlsErrors: true,
        username: SMTP_USER,
        from: 'pagewatch@example.test',
        to: ['oncall@example.test'],
      },
      secrets: { password: SMTP_PASSWORD },
      isDefault: false,
    });
    expect(channel.status).toBe(201);
    const mailPolicy = await post(t, '/api/v1/escalation-policies', {
      name: 'Mail first',
      steps: [
        {
          waitMinutes: 0,
          targets: [{ kind: 'channel', channelId: (channel.body as { id: number }).id }],
        },
      ],
    });
    skipped = 0;
    target.setMode('normal');
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name: 'Mailer',
      url: `${target.url}/ok`,
      interval: 3600,
      timeout: 5,
      alerts: { escalationPolicyId: (mailPolicy.body as { id: number }).id },
    });
    const id = Monitor.parse(created.body).id;
    await expect
      .poll(async () => (await t.inject(`/api/v1/monitors/${id}`)).json().status)
      .toBe('up');
    target.setMode('down');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBeGreaterThan(0);
    // Quoted-printable: soft line breaks and escaped "=" undone before reading the link.
    const body = smtp.mails[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = new RegExp(`${PUBLIC_URL}(/ack/[\\w.-]+)`).exec(body)?.[1];
    expect(link).toBeDefined();
    const done = await t.inject({ method: 'POST', url: link!, headers: { authorization: '' } });
    expect(done.statusCode).toBe(200);
    expect((await escalationOfMonitor(id)).acknowledgement).toMatchObject({
      via: 'link',
      by: 'a recipient of “On-call mail”',
    });
    target.setMode('normal');
  }, 30_000);

  it('quiet hours hold a warning back to the end of the window and let a critical one through', async () => {
    const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
    const quietEnd = Date.now() + 2 * 3_600_000;
    const teamId = teamChannel;
    const quiet = await post(t, '/api/v1/escalation-policies', {
      name: 'Quiet nights',
      steps: [{ waitMinutes: 0, targets: [{ kind: 'channel', channelId: teamId }] }],
      quietHours: [
        {
          days: [0, 1, 2, 3, 4, 5, 6],
          from: hhmm(Date.now() - 3_600_000),
          to: hhmm(quietEnd),
          timeZone: 'UTC',
        },
      ],
    });
    expect(quiet.status).toBe(201);
    const quietId = (quiet.body as { id: number }).id;
    skipped = 0;
    target.setMode('normal');
    const make = async (name: string, severity: string) => {
      const created = await post(t, '/api/v1/monitors', {
        type: 'http',
        name,
        url: `${target.url}/ok`,
        interval: 3600,
        timeout: 5,
        alerts: { escalationPolicyId: quietId, severity },
      });
      return Monitor.parse(created.body).id;
    };
    const warning = await make('Reports', 'warning');
    const critical = await make('Payments', 'critical');
    for (const id of [warning, critical])
      await expect
        .poll(async () => (await t.inject(`/api/v1/monitors/${id}`)).json().status)
        .toBe('up');
    target.setMode('down');
    await post(t, `/api/v1/monitors/${warning}/check-now`);
    await post(t, `/api/v1/monitors/${critical}/check-now`);
    await team.waitFor(() => downs(team, critical).length === 1);
    // The warning is queued, not dropped: due at the end of the window (to the minute).
    const held = (await outbox(t.database)).find(
      (r) => r.kind === 'monitor.down' && r.event.monitor?.id === warning,
    );
    expect(held).toMatchObject({ state: 'queued' });
    expect(held!.nextAttemptAt! - Math.floor(quietEnd / 60_000) * 60_000).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(downs(team, warning)).toEqual([]);
    target.setMode('normal');
  }, 30_000);

  it('a group monitor under a policy escalates like any monitor, following its member at once', async () => {
    skipped = 0;
    target.setMode('normal');
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name: 'Basket API',
      url: `${target.url}/ok`,
      interval: 3600,
      timeout: 5,
      retries: 0,
    });
    const member = Monitor.parse(created.body).id;
    await expect
      .poll(async () => (await t.inject(`/api/v1/monitors/${member}`)).json().status)
      .toBe('up');
    const grouped = await post(t, '/api/v1/monitors', {
      type: 'group',
      name: 'Shop (group)',
      members: [member],
      interval: 300,
      retries: 0,
      alerts: { escalationPolicyId: policyId },
    });
    expect(grouped.status, JSON.stringify(grouped.body)).toBe(201);
    const id = Monitor.parse(grouped.body).id;
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await expect
      .poll(async () => (await t.inject(`/api/v1/monitors/${id}`)).json().status)
      .toBe('up');

    // Only the member is checked; the group follows within seconds, not its 300 s interval.
    target.setMode('down');
    await post(t, `/api/v1/monitors/${member}/check-now`);
    await team.waitFor(() => downs(team, id).length === 1, 20_000);
    expect(downs(manager, id)).toEqual([]);
    expect(other.delivered().filter((x) => x.monitorId === id)).toEqual([]);
    skipped = 10 * MIN;
    await manager.waitFor(() => downs(manager, id).length === 1, 10_000);
    expect((await escalationOfMonitor(id)).notifiedChannelIds).toHaveLength(2);

    // The member recovers, the group follows, and everyone notified hears of it.
    target.setMode('normal');
    await post(t, `/api/v1/monitors/${member}/check-now`);
    const ups = (r: AlertReceiver) =>
      r.delivered().filter((x) => x.kind === 'monitor.up' && x.monitorId === id);
    await team.waitFor(() => ups(team).length === 1, 20_000);
    await manager.waitFor(() => ups(manager).length === 1, 10_000);
    skipped = 0;
  }, 60_000);

  it('refuses a policy naming a channel that does not exist, and deleting a policy in use', async () => {
    const refused = await post(t, '/api/v1/escalation-policies', {
      name: 'Typo',
      steps: [{ waitMinutes: 0, targets: [{ kind: 'channel', channelId: 99_999 }] }],
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('steps.0.targets.0.channelId');
    const del = await t.inject({
      method: 'DELETE',
      url: `/api/v1/escalation-policies/${policyId}`,
    });
    expect(del.statusCode).toBe(409);
    expect(del.json().detail ?? del.json().title).toMatch(/monitors? use/);
  });
});
