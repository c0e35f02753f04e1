import {
  MaintenanceWindow,
  MonitorBulkResult,
  MonitorRowPage,
  maintenanceLimits,
  monitorsEventMax,
  type ServerEvent,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { AUDIENCE_CHUNK, audienceOf } from '../../src/db/repositories/status-subscribers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { insertStatusPage } from '../support/status-pages.js';

const COUNT = 2_000;

/**
 * Issue 17: bulk actions on 2,000 monitors, a maintenance window included. The window names
 * every monitor; the statements that look through its monitors stay bounded on both engines.
 */
describe.each(engines)('bulk actions on 2,000 monitors on %s', (engine) => {
  let t: TestApp;
  let ids: number[] = [];
  beforeAll(async () => {
    t = await startTestApp({ engine });
    const repos = repositories(t.database);
    const at = Date.now();
    for (let i = 0; i < COUNT; i++) {
      const m = await repos.monitors.insert(
        monitorInput({ name: `Fleet ${i}`, url: `http://127.0.0.1:9/${i}`, tags: ['fleet'] }),
        at,
      );
      ids.push(m.id);
    }
    ids = ids.sort((a, b) => a - b);
  }, 120_000);
  afterAll(async () => t?.stop());

  it('puts all 2,000 monitors matching a filter in one window', async () => {
    const startsAt = new Date(Date.now() + 3_600_000).toISOString();
    const endsAt = new Date(Date.now() + 7_200_000).toISOString();
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors/bulk',
      payload: {
        selection: { kind: 'filter', tag: 'fleet' },
        action: {
          kind: 'maintenance',
          title: 'Fleet upgrade',
          timezone: 'UTC',
          schedule: { kind: 'once', startsAt, endsAt },
        },
      },
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const r = MonitorBulkResult.parse(res.json());
    expect(r).toMatchObject({ action: 'maintenance', selected: COUNT, notFound: [], refused: [] });
    expect(r.done).toEqual(ids);
    const w = MaintenanceWindow.parse(
      (await t.inject(`/api/v1/maintenance/${r.maintenanceId}`)).json(),
    );
    expect(w.scope).toEqual({ kind: 'monitors', monitorIds: ids });
  }, 60_000);

  it('finds the followers of a page showing the last of them, each once', async () => {
    expect(COUNT).toBeGreaterThan(AUDIENCE_CHUNK);
    const last = ids[ids.length - 1]!;
    const first = ids[0]!;
    const pageId = await insertStatusPage(t.database, null, {
      subscriptions: { email: false, webhook: true },
      sections: [{ components: [{ monitorId: first }, { monitorId: last }] }],
    });
    await t.database.db
      .insertInto('status_subscribers')
      .values({
        page_id: pageId,
        kind: 'webhook',
        address: 'http://127.0.0.1:9/hook',
        state: 'confirmed',
        token: 'tok-2k',
        base_url: 'http://status.example',
        created_at: Date.now(),
        confirmed_at: Date.now(),
        unsubscribed_at: null,
      })
      .execute();
    const audience = await audienceOf(t.database.db, ids);
    // Two parts name the page (its first and its last monitor): the subscriber is there once.
    expect(audience.map((a) => a.page.id)).toEqual([pageId]);
    expect(await audienceOf(t.database.db, ids.slice(AUDIENCE_CHUNK))).toHaveLength(1);
    expect(await audienceOf(t.database.db, ids.slice(1, AUDIENCE_CHUNK))).toHaveLength(0);
  });

  it('pauses all 2,000 announcing them in a few batches, not one event a monitor', async () => {
    const seen: ServerEvent[] = [];
    const stop = t.hub.subscribe(({ event }) => seen.push(event));
    try {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors/bulk',
        payload: { selection: { kind: 'filter', tag: 'fleet' }, action: { kind: 'pause' } },
      });
      expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
      expect(MonitorBulkResult.parse(res.json()).done).toHaveLength(COUNT);
    } finally {
      stop();
    }
    const batches = seen.filter((e) => e.kind === 'monitors');
    expect(batches.map((e) => e.monitorIds.length)).toEqual(
      Array.from({ length: COUNT / monitorsEventMax }, () => monitorsEventMax),
    );
    expect(batches.flatMap((e) => e.monitorIds).sort((a, b) => a - b)).toEqual(ids);
    expect(seen.filter((e) => e.kind === 'monitor')).toEqual([]);
    const rows = MonitorRowPage.parse(
      (await t.inject('/api/v1/monitors/rows?status=paused&limit=1')).json(),
    );
    expect(rows.total).toBe(COUNT);
  }, 60_000);

  it('refuses a window naming more monitors than the limit, with the number in words', async () => {
    const tooMany = Array.from({ length: maintenanceLimits.monitorsMax + 1 }, (_, i) => i + 1);
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance',
      payload: {
        title: 'Too wide',
        description: '',
        timezone: 'UTC',
        scope: { kind: 'monitors', monitorIds: tooMany },
        schedule: {
          kind: 'once',
          startsAt: new Date(Date.now() + 3_600_000).toISOString(),
          endsAt: new Date(Date.now() + 7_200_000).toISOString(),
        },
      },
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.body).toContain('At most 10,000 monitors');
  });
});
