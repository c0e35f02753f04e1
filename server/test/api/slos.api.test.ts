import type { Slo, SloList } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { toWrite, type GenCheck } from '../support/history.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
// Half a minute into a minute: the last 60 whole minutes are closed and read.
const NOW = Math.floor(Date.now() / MIN) * MIN + 30_000;
const minuteStart = NOW - 30_000;

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

/** One check a minute over the last hour; `down` of the latest minutes failed. */
function lastHour(monitorId: number, down: number): GenCheck[] {
  return Array.from({ length: 60 }, (_, k) => {
    const i = k + 1;
    const failed = i <= down;
    return {
      monitorId,
      at: minuteStart - i * MIN + 5_000,
      outcome: failed ? 'down' : 'up',
      latencyUs: failed ? null : 100_000,
      phasesUs: { dns: null, connect: null, tls: null, ttfb: null, download: null },
    };
  });
}

/** Issue 20 items 1–2 over the API: SLOs on a monitor and a tag, their figures, who may write. */
describe.each(engines)('SLOs API on %s', (engine) => {
  let t: TestApp;
  let editor: Identity;
  let viewer: Identity;
  let web: number;
  let api: number;

  beforeAll(async () => {
    t = await startTestApp({ engine, clock: { now: () => NOW } });
    editor = await t.identity('editor');
    viewer = await t.identity('viewer');
    const create = async (input: object) =>
      (await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(input) })).json<{
        id: number;
      }>().id;
    web = await create(monitorInput({ name: 'Web', tags: ['api'] }));
    api = await create(monitorInput({ name: 'API', tags: ['api'] }));
    await repositories(t.database).results.writeBatch(
      [...lastHour(web, 1), ...lastHour(api, 0)].map(toWrite),
    );
  });
  afterAll(() => t?.stop());

  const post = (body: object, who: Identity) =>
    t.inject({ method: 'POST', url: '/api/v1/slos', ...json(body, who.headers) });

  it('an editor creates an SLO and sees its attainment, budget and burn rate', async () => {
    const res = await post(
      {
        name: 'Web availability',
        subject: { kind: 'monitor', monitorId: web },
        target: 90,
        window: '30d',
        latency: { percent: 95, thresholdMs: 500 },
      },
      editor,
    );
    expect(res.statusCode).toBe(201);
    const slo = res.json<Slo>();
    expect(slo.subjectLabel).toBe('Web');
    // The window is measured from the monitor's first stored hour; 1 of 60 checks failed, so
    // a 60th of that time is spent, of the 3 days 90 % allows over 30 days.
    const elapsed = NOW - Math.floor((minuteStart - 60 * MIN) / HOUR) * HOUR;
    const spent = Math.round(elapsed / 60);
    expect(slo.status).toMatchObject({
      checks: 60,
      badChecks: 1,
      attainment: 98.333,
      budgetMs: 3 * DAY,
      spentMs: spent,
      remainingMs: 3 * DAY - spent,
      health: 'healthy',
      latency: { met: true },
    });
    // Last hour: 1/60 failing against 10 % allowed, so budget-time goes at a 60th of real time.
    expect(slo.status.burnRate).toBeCloseTo(0.167, 3);
    expect(slo.status.exhaustionMs).toBe((3 * DAY - spent) * 60);
    expect(slo.status.latency!.observedMs).toBeGreaterThan(98);
    expect(slo.status.latency!.observedMs).toBeLessThan(102);
    expect(slo.status.rules.map((r) => r.breached)).toEqual([false, false, false]);
  });

  it("a tag's SLO counts every monitor carrying the tag, and burns fast on a tight target", async () => {
    const res = await post(
      { name: 'API tier', subject: { kind: 'tag', tag: 'api' }, target: 99.9, window: 'month' },
      editor,
    );
    expect(res.statusCode).toBe(201);
    const slo = res.json<Slo>();
    expect(slo.subjectLabel).toBe('tag: api');
    expect(slo.status).toMatchObject({ checks: 120, badChecks: 1, attainment: 99.167 });
    // The last 5 minutes: 1 of 10 checks failed, burn 100; the last hour 1 of 120, burn 8.3.
    const [fast, slow, ticket] = slo.status.rules;
    expect(fast).toMatchObject({ breached: false });
    expect(fast!.shortBurn).toBeCloseTo(100, 6);
    expect(fast!.longBurn).toBeCloseTo(8.333, 3);
    expect(slow).toMatchObject({ breached: true });
    expect(ticket).toMatchObject({ breached: true });
    expect(slo.status.health).not.toBe('healthy');
  });

  it('lists SLOs by name, and those of one monitor', async () => {
    const all = (await t.inject({ url: '/api/v1/slos', headers: viewer.headers })).json<SloList>();
    expect(all.items.map((s) => s.name)).toEqual(['API tier', 'Web availability']);
    const ofWeb = (
      await t.inject({ url: `/api/v1/slos?monitorId=${web}`, headers: viewer.headers })
    ).json<SloList>();
    expect(ofWeb.items.map((s) => s.name)).toEqual(['API tier', 'Web availability']);
    const ofApi = (
      await t.inject({ url: `/api/v1/slos?monitorId=${api}`, headers: viewer.headers })
    ).json<SloList>();
    expect(ofApi.items.map((s) => s.name)).toEqual(['API tier']);
  });

  it('refuses viewers, a 100 % target, unknown monitors and components a page does not show', async () => {
    const ok = { name: 'x', subject: { kind: 'monitor', monitorId: web }, target: 99 };
    expect((await post(ok, viewer)).statusCode).toBe(403);
    expect((await post({ ...ok, target: 100 }, editor)).statusCode).toBe(400);
    expect((await post({ ...ok, timeZone: 'Mars/Olympus' }, editor)).statusCode).toBe(400);
    const unknown = await post({ ...ok, subject: { kind: 'monitor', monitorId: 999_999 } }, editor);
    expect(unknown.statusCode).toBe(400);
    const page = (
      await t.inject({
        method: 'POST',
        url: '/api/v1/status-pages',
        ...json({ title: 'Public', slug: `slo-page-${engine}` }),
      })
    ).json<{ id: number }>().id;
    const component = await post(
      { ...ok, subject: { kind: 'component', statusPageId: page, monitorId: web } },
      editor,
    );
    expect(component.statusCode).toBe(400);
  });

  it('replaces and deletes an SLO; the audit log names both', async () => {
    const created = (
      await post({ name: 'Temp', subject: { kind: 'monitor', monitorId: api }, target: 99 }, editor)
    ).json<Slo>();
    const put = await t.inject({
      method: 'PUT',
      url: `/api/v1/slos/${created.id}`,
      ...json(
        {
          name: 'Temp 2',
          subject: { kind: 'monitor', monitorId: api },
          target: 95,
          window: 'quarter',
          timeZone: 'Europe/Berlin',
        },
        editor.headers,
      ),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json<Slo>()).toMatchObject({ name: 'Temp 2', target: 95, window: 'quarter' });
    const del = () =>
      t.inject({ method: 'DELETE', url: `/api/v1/slos/${created.id}`, headers: editor.headers });
    expect((await del()).statusCode).toBe(204);
    expect((await del()).statusCode).toBe(404);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('action', 'like', 'slo.%')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['slo.created', 'slo.updated', 'slo.deleted']),
    );
  });
});
