import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { loadSecretKey } from '../../src/lib/secret-key.js';
import { SecretBox } from '../../src/lib/crypto.js';
import { EventHub } from '../../src/lib/event-hub.js';
import type { ServiceDeps } from '../../src/services/deps.js';
import { runReportSchedules } from '../../src/services/reports/deliver.js';
import { startSmtpPeer, type SmtpPeer } from '../fixtures/smtp-peer.js';
import { anonymous } from '../security/helpers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { unfolded, useSystemMail } from '../support/mail.js';

const PUBLIC_URL = 'https://pagewatch.example.test';
const DAY = 86_400_000;
/** Mid-March 2026; Berlin is on summer time (UTC+2) from 29 March, so April starts 31 March 22:00Z. */
const MARCH_14 = Date.parse('2026-03-14T10:00:00Z');
const APRIL_1_BERLIN = Date.parse('2026-03-31T22:00:00Z');
const NAME = 'Shop <script>alert(1)</script> & API';

/**
 * Monthly report emails through the real SMTP peer, with the clock moved across month ends
 * (ADR 65), and customer links opened without a session.
 */
describe.each(engines)('report delivery on %s', (engine) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let now = MARCH_14;
  let deps: ServiceDeps;
  let monitorId: number;

  beforeAll(async () => {
    smtp = await startSmtpPeer({ auth: true });
    t = await startTestApp({
      engine,
      clock: { now: () => now },
      config: { publicUrl: PUBLIC_URL },
    });
    // The job as the `report-schedules` singleton runs it, on the same clock and database.
    deps = {
      repos: repositories(t.database),
      clock: { now: () => now },
      hub: new EventHub(),
      secrets: new SecretBox(loadSecretKey('test-instance-secret-0123456789abcdef', '')),
      publicUrl: PUBLIC_URL,
      blockPrivateNotifyTargets: false,
    } as unknown as ServiceDeps;
    await useSystemMail(t, smtp);
    const m = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: NAME }),
    });
    expect(m.statusCode).toBe(201);
    monitorId = m.json<{ id: number }>().id;
    // 10 March (UTC day): 10 of 1,440 checks down, 99.306 % for March in Berlin.
    await t.database.db
      .insertInto('rollup_day')
      .values({
        monitor_id: monitorId,
        bucket: Date.parse('2026-03-10T00:00:00Z'),
        checks: 1440,
        up: 1430,
        degraded: 0,
        down: 10,
        latency_sum_us: 1430 * 200_000,
        latency_count: 1430,
        latency_min_us: 100_000,
        latency_max_us: 300_000,
        latency_sketch: null,
        dns_sum_us: 0,
        dns_count: 0,
        connect_sum_us: 0,
        connect_count: 0,
        tls_sum_us: 0,
        tls_count: 0,
        ttfb_sum_us: 0,
        ttfb_count: 0,
        download_sum_us: 0,
        download_count: 0,
      })
      .execute();
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
  });

  const auditActions = async () =>
    (
      await t.database.db
        .selectFrom('audit_events')
        .select(['action', 'summary'])
        .where('action', 'like', 'report.%')
        .orderBy('id')
        .execute()
    ).map((a) => `${a.action}: ${a.summary}`);

  describe('monthly emails', () => {
    let scheduleId: number;
    let viewer: { userId: number; email: string };

    it('refuses a schedule without recipients or of nothing, and a viewer', async () => {
      const base = {
        name: 'Monthly',
        subject: { kind: 'monitor', id: String(monitorId) },
        formats: ['pdf'],
      };
      const none = await t.inject({
        method: 'POST',
        url: '/api/v1/reports/schedules',
        payload: base,
      });
      expect(none.statusCode).toBe(400);
      const nothing = await t.inject({
        method: 'POST',
        url: '/api/v1/reports/schedules',
        payload: { ...base, subject: { kind: 'monitor', id: '999999' }, emails: ['a@example.com'] },
      });
      expect(nothing.statusCode).toBe(404);
      const v = await t.identity('viewer');
      const refused = await t.inject({
        method: 'POST',
        url: '/api/v1/reports/schedules',
        headers: v.headers,
        payload: { ...base, emails: ['a@example.com'] },
      });
      expect(refused.statusCode).toBe(403);
    });

    it('sends March once, on 1 April in Berlin, to a user and an address, PDF and CSV attached', async () => {
      viewer = await t.identity('viewer', 'reader@example.com');
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/reports/schedules',
        payload: {
          name: 'Customer monthly',
          subject: { kind: 'monitor', id: String(monitorId) },
          timeZone: 'Europe/Berlin',
          formats: ['csv', 'pdf'],
          userIds: [viewer.userId],
          emails: ['Customer@Example.com'],
        },
      });
      expect(res.statusCode).toBe(201);
      const created = res.json<{ id: number; nextPeriod: string; nextSendAt: string }>();
      scheduleId = created.id;
      expect(created).toMatchObject({
        nextPeriod: '2026-03',
        nextSendAt: '2026-03-31T22:00:00.000Z',
      });

      // A minute before midnight in Berlin: March is not over there yet.
      now = APRIL_1_BERLIN - 60_000;
      expect(await runReportSchedules(deps)).toEqual({ queued: 0, sent: 0, failed: 0 });
      expect(smtp.mails).toHaveLength(0);

      now = APRIL_1_BERLIN + 60_000;
      // Two senders at once (a lease changing hands): each message still goes once.
      const [a, b] = await Promise.all([runReportSchedules(deps), runReportSchedules(deps)]);
      expect(a.sent + b.sent).toBe(2);
      expect(a.queued + b.queued).toBe(2);
      expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual([
        'customer@example.com',
        'reader@example.com',
      ]);
      for (const mail of smtp.mails) {
        const raw = unfolded(mail.raw);
        expect(mail.to).toHaveLength(1);
        expect(mail.secure).toBe(true);
        expect(raw).toContain('2026-03');
        expect(raw).toContain('Uptime: 99.306 %');
        expect(raw).toMatch(/Content-Type: application\/pdf/i);
        expect(raw).toMatch(/Content-Type: text\/csv/i);
        expect(raw).toMatch(/filename=.*\.pdf/);
        // The monitor's name is escaped in the HTML part.
        expect(raw).toContain('<li>Shop &lt;script&gt;alert(1)&lt;/script&gt; &amp; API: 99.306 %');
      }

      // Again, and again later the same month: nothing more.
      expect(await runReportSchedules(deps)).toEqual({ queued: 0, sent: 0, failed: 0 });
      now = APRIL_1_BERLIN + 20 * DAY;
      expect(await runReportSchedules(deps)).toEqual({ queued: 0, sent: 0, failed: 0 });
      expect(smtp.mails).toHaveLength(2);

      const listed = await t.inject({ url: '/api/v1/reports/schedules' });
      expect(listed.json<{ items: unknown[] }>().items).toEqual([
        expect.objectContaining({
          id: scheduleId,
          nextPeriod: '2026-04',
          lastPeriod: { period: '2026-03', sent: 2, pending: 0, failed: 0 },
          emails: ['customer@example.com'],
        }),
      ]);
      expect(await auditActions()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^report\.schedule_created: Monthly report "Customer monthly"/),
          'report.schedule_sent: Monthly report "Customer monthly" for 2026-03 sent to 2 of 2',
        ]),
      );
    });

    it('catches up the months it missed, once each, and retries a refused message', async () => {
      // Nobody ran the job in May or June: on 2 July, April, May and June go out.
      now = Date.parse('2026-07-02T08:00:00Z');
      smtp.rejectNextMessage(451, 'Try again later');
      const first = await runReportSchedules(deps);
      expect(first).toEqual({ queued: 6, sent: 5, failed: 1 });
      expect(await runReportSchedules(deps)).toEqual({ queued: 0, sent: 0, failed: 0 });
      // The refused one is retried after its wait, once.
      now += 6 * 60_000;
      expect(await runReportSchedules(deps)).toEqual({ queued: 0, sent: 1, failed: 0 });
      expect(await runReportSchedules(deps)).toEqual({ queued: 0, sent: 0, failed: 0 });
      const periods = smtp.mails.map((m) => /2026-0[4-6]/.exec(unfolded(m.raw))?.[0]).sort();
      expect(periods).toEqual(['2026-04', '2026-04', '2026-05', '2026-05', '2026-06', '2026-06']);
    });

    it('skips the months a schedule was paused, and stops when deleted', async () => {
      const get = await t.inject({ url: `/api/v1/reports/schedules/${scheduleId}` });
      const body = get.json<Record<string, unknown>>();
      const paused = await t.inject({
        method: 'PUT',
        url: `/api/v1/reports/schedules/${scheduleId}`,
        payload: {
          name: body.name,
          subject: body.subject,
          timeZone: body.timeZone,
          formats: body.formats,
          userIds: body.userIds,
          emails: body.emails,
          enabled: false,
        },
      });
      expect(paused.statusCode).toBe(200);
      now = Date.parse('2026-08-01T08:00:00Z');
      expect(await runReportSchedules(deps)).toEqual({ queued: 0, sent: 0, failed: 0 });
      expect(smtp.mails).toHaveLength(0);
      const del = await t.inject({
        method: 'DELETE',
        url: `/api/v1/reports/schedules/${scheduleId}`,
      });
      expect(del.statusCode).toBe(204);
      now = Date.parse('2026-09-01T08:00:00Z');
      expect(await runReportSchedules(deps)).toEqual({ queued: 0, sent: 0, failed: 0 });
      expect(await auditActions()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^report\.schedule_updated: .*\(paused\)$/),
          'report.schedule_deleted: Monthly report "Customer monthly"',
        ]),
      );
    });
  });

  describe('customer links', () => {
    const make = async (payload: object) => {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/reports/links',
        payload: {
          name: 'For ACME',
          subject: { kind: 'monitor', id: String(monitorId) },
          timeZone: 'Europe/Berlin',
          ...payload,
        },
      });
      expect(res.statusCode).toBe(201);
      return res.json<{ link: { id: number; state: string }; url: string }>();
    };
    const open = (path: string) => t.inject({ url: path, headers: anonymous });
    const pathOf = (url: string) => url.slice(PUBLIC_URL.length);

    it('opens a fixed month without a session: page, PDF and CSV, names escaped', async () => {
      now = Date.parse('2026-09-15T08:00:00Z');
      const { url, link } = await make({ range: 'month', period: '2026-03' });
      expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/report/[A-Za-z0-9_-]{43}$`));
      expect(link.state).toBe('active');
      const page = await open(pathOf(url));
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('99.306 %');
      expect(page.body).toContain('Shop &lt;script&gt;alert(1)&lt;/script&gt; &amp; API');
      expect(page.body).not.toContain('<script>');
      const pdf = await open(`${pathOf(url)}/report.pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const csv = await open(`${pathOf(url)}/report.csv`);
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('99.306');
      // Only the hash is stored.
      const token = url.split('/').at(-1)!;
      const rows = await t.database.db.selectFrom('report_links').select('token_hash').execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(token);
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it('a rolling link shows the previous month whenever it is opened', async () => {
      // The test's clock only moves forward (the rate limit refills by it).
      now = Date.parse('2026-09-20T08:00:00Z');
      const { url } = await make({ range: 'last_month' });
      const august = await open(pathOf(url));
      expect(august.statusCode).toBe(200);
      expect(august.body).toContain('2026-08');
      now = Date.parse('2026-10-10T08:00:00Z');
      const september = await open(pathOf(url));
      expect(september.body).toContain('2026-09');
      expect(september.body).not.toContain('2026-08');
    });

    it('revoked, expired and tampered links all get the same 404 that names nothing', async () => {
      now = Date.parse('2026-10-15T08:00:00Z');
      const revoked = await make({ range: 'month', period: '2026-03' });
      const expiring = await make({
        range: 'month',
        period: '2026-03',
        expiresAt: new Date(now + 3_600_000).toISOString(),
      });
      expect((await open(pathOf(expiring.url))).statusCode).toBe(200);
      const del = await t.inject({
        method: 'DELETE',
        url: `/api/v1/reports/links/${revoked.link.id}`,
      });
      expect(del.statusCode).toBe(204);
      now += 2 * 3_600_000;
      const token = revoked.url.split('/').at(-1)!;
      const tampered = `/report/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      const answers = await Promise.all(
        [pathOf(revoked.url), pathOf(expiring.url), tampered, '/report/short'].flatMap((p) => [
          open(p),
          open(`${p}/report.pdf`),
        ]),
      );
      for (const a of answers) {
        expect(a.statusCode).toBe(404);
        expect(a.body).not.toContain('Shop');
        expect(a.body).not.toContain('2026-03');
        expect(a.body).toBe(answers[0]!.body);
      }
      const list = await t.inject({ url: '/api/v1/reports/links', headers: anonymous });
      expect(list.statusCode).toBe(401);
      const listed = await t.inject({ url: '/api/v1/reports/links' });
      const states = listed.json<{ items: { id: number; state: string }[] }>().items;
      expect(states.find((l) => l.id === revoked.link.id)?.state).toBe('revoked');
      expect(states.find((l) => l.id === expiring.link.id)?.state).toBe('expired');
      expect(await auditActions()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^report\.link_created: Link "For ACME" to the report of Shop/),
          'report.link_revoked: Link "For ACME"',
        ]),
      );
    });

    it('refuses a link that has already expired, and a bad range', async () => {
      const past = await t.inject({
        method: 'POST',
        url: '/api/v1/reports/links',
        payload: {
          name: 'Old',
          subject: { kind: 'monitor', id: String(monitorId) },
          range: 'last_month',
          expiresAt: new Date(now - 1000).toISOString(),
        },
      });
      expect(past.statusCode).toBe(400);
      const range = await t.inject({
        method: 'POST',
        url: '/api/v1/reports/links',
        payload: {
          name: 'Backwards',
          subject: { kind: 'monitor', id: String(monitorId) },
          range: 'custom',
          from: '2026-03-10',
          to: '2026-03-01',
        },
      });
      expect(range.statusCode).toBe(400);
    });
  });

  describe('people an editor may pick as recipients', () => {
    it('are the active accounts by name and address, nothing more; viewers may not list them', async () => {
      const editor = await t.identity('editor', 'picker@example.com');
      const gone = await t.identity('viewer', 'gone@example.com');
      const off = await t.inject({
        method: 'PATCH',
        url: `/api/v1/users/${gone.userId}`,
        payload: { disabled: true },
      });
      expect(off.statusCode, off.body).toBe(200);
      const res = await t.inject({ url: '/api/v1/people', headers: editor.headers });
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json<{ items: Record<string, unknown>[] }>().items;
      expect(items.find((p) => p.email === 'picker@example.com')).toEqual({
        id: editor.userId,
        name: expect.any(String),
        email: 'picker@example.com',
      });
      expect(items.some((p) => p.email === 'gone@example.com')).toBe(false);
      const viewer = await t.identity('viewer');
      const refused = await t.inject({ url: '/api/v1/people', headers: viewer.headers });
      expect(refused.statusCode).toBe(403);
    });
  });
});
