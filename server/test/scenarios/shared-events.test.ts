import type { ServerEvent } from '@pagewatch/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packEvents } from '../../src/db/event-bridge.js';
import { repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postgresUrl } from '../support/engines.js';
import { until } from '../support/until.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';
import { insertStatusPage } from '../support/status-pages.js';

const statusEvent = (monitorId: number): ServerEvent => ({
  kind: 'status',
  monitorId,
  from: 'up',
  to: 'down',
  at: new Date().toISOString(),
  errorCode: 'connect_refused',
  message: null,
});

function heard(app: TestApp): ServerEvent[] {
  const seen: ServerEvent[] = [];
  app.hub.subscribe(({ event }) => seen.push(event));
  return seen;
}

describe('events shared over NOTIFY are packed', () => {
  it('into payloads under PostgreSQL’s limit, leaving bulky check details at home', () => {
    const events = Array.from({ length: 200 }, (_, i) => statusEvent(i));
    const { batches, dropped } = packEvents('abc', events);
    expect(dropped).toBe(0);
    expect(batches.length).toBeGreaterThan(1);
    for (const b of batches) expect(Buffer.byteLength(b.payload)).toBeLessThan(8000);
    const back = batches.flatMap((b) => (JSON.parse(b.payload) as { e: ServerEvent[] }).e);
    expect(back).toEqual(events);
    expect(batches.reduce((n, b) => n + b.events, 0)).toBe(200);

    const result = {
      kind: 'result',
      monitorId: 1,
      status: 'up',
      result: { id: 1 },
      details: { certificate: 'x'.repeat(20_000) },
    } as unknown as ServerEvent;
    const lean = packEvents('abc', [result]);
    const sent = JSON.parse(lean.batches[0]!.payload) as { o: string; e: ServerEvent[] };
    expect(sent).toMatchObject({ o: 'abc', e: [{ kind: 'result', monitorId: 1 }] });
    // Left out, not null: the receiving page knows to read the latest check's details itself.
    expect(sent.e[0]).not.toHaveProperty('details');
    const huge = { ...statusEvent(1), message: 'y'.repeat(9_000) };
    expect(packEvents('abc', [huge, statusEvent(2)])).toMatchObject({ dropped: 1 });
  });
});

describe.runIf(postgresUrl)('processes sharing one PostgreSQL database', () => {
  let web: TestApp;
  let worker: TestApp;

  beforeAll(async () => {
    web = await startTestApp({ engine: 'postgres' });
    worker = await startTestApp({ engine: 'postgres', sharing: web });
  });
  afterAll(async () => {
    await worker?.stop();
    await web?.stop();
  });

  it('show a flip written by another process on the status page within a moment', async () => {
    const created = await web.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'Checkout' }),
    });
    const monitorId = Number(created.json<{ id: number }>().id);
    const repos = repositories(worker.database);
    await repos.results.writeBatch([
      {
        monitorId,
        at: Date.now() - 1000,
        run: checkRun(),
        status: 'up',
        failures: 0,
        recent: [],
        flip: { from: 'pending', to: 'up' },
      },
    ]);
    await insertStatusPage(web.database, web.hub, {
      slug: 'shared',
      sections: [{ components: [{ monitorId }] }],
    });
    const page = () => web.inject({ url: '/status/shared', headers: { authorization: '' } });
    expect((await page()).body).toContain('All systems operational');

    // The worker (a scheduler process) records the outage and announces it in its own hub.
    await repos.results.writeBatch([
      {
        monitorId,
        at: Date.now(),
        run: downRun(),
        status: 'down',
        failures: 2,
        recent: [],
        flip: { from: 'up', to: 'down' },
      },
    ]);
    const seen = heard(web);
    worker.hub.publish(statusEvent(monitorId));
    const started = Date.now();
    await until('the web process to re-render', async () =>
      (await page()).body.includes('Major outage') ? true : undefined,
    );
    // Well inside the cache's 60 s age, which was all a web-only process had before.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen).toEqual([statusEvent(monitorId)].map((e) => ({ ...e, at: expect.any(String) })));
  });

  it('carry check results to processes with the web role only, and flips to all', async () => {
    const quiet = await startTestApp({
      engine: 'postgres',
      sharing: web,
      config: { roles: ['scheduler'] },
    });
    try {
      const created = await web.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput({ name: 'Results' }),
      });
      const monitorId = Number(created.json<{ id: number }>().id);
      const [written] = await repositories(worker.database).results.writeBatch([
        {
          monitorId,
          at: Date.now(),
          run: checkRun(),
          status: 'up',
          failures: 0,
          recent: [],
          flip: null,
        },
      ]);
      const toWeb = heard(web);
      const toQuiet = heard(quiet);
      worker.hub.publish({
        kind: 'result',
        monitorId,
        status: 'up',
        result: written!.result,
        details: null,
      });
      worker.hub.publish(statusEvent(monitorId));
      // Results and flips only: the monitor's own "created" may still be on its way.
      const kinds = (seen: ServerEvent[]) =>
        seen
          .filter((e) => (e.kind === 'result' || e.kind === 'status') && e.monitorId === monitorId)
          .map((e) => e.kind);
      await until('the web process to hear the result and the flip', () =>
        kinds(toWeb).sort().join() === 'result,status' ? true : undefined,
      );
      await until('the scheduler-only process to hear the flip', () =>
        kinds(toQuiet).includes('status') ? true : undefined,
      );
      // The result went out with the flip, on a channel of its own: the quiet one never hears it.
      await new Promise((r) => setTimeout(r, 200));
      expect(kinds(toQuiet)).toEqual(['status']);
    } finally {
      await quiet.stop();
    }
  });

  it('deliver an edit made in one process to the others, and never back to itself', async () => {
    const toWorker = heard(worker);
    const toWeb = heard(web);
    const created = await web.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'API' }),
    });
    const monitorId = Number(created.json<{ id: number }>().id);
    await until('the worker to hear of the monitor', async () =>
      toWorker.some((e) => e.kind === 'monitor' && e.monitorId === monitorId) ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(toWeb.filter((e) => e.kind === 'monitor' && e.monitorId === monitorId)).toHaveLength(1);
    expect(toWorker.filter((e) => e.kind === 'monitor' && e.monitorId === monitorId)).toHaveLength(
      1,
    );
  });

  it('listen again after losing their connection', async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const channel = `pagewatch_events_${(web.target as { schema: string }).schema}`;
    const killed = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where query like $1',
      [`LISTEN "${channel}"%`],
    );
    await admin.end();
    // Both processes listen on the same channel; both lost their feed.
    expect(killed.rowCount).toBe(2);
    await until('the web process to reconnect', async () =>
      web.bridge!.stats.reconnects > 0 ? true : undefined,
    );
    const metrics = await web.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/pagewatch_shared_events_total\{what="reconnects"\} [1-9]/);
    expect(metrics.body).toMatch(/pagewatch_shared_events_total\{what="received"\} [1-9]/);
    const seen = heard(web);
    await until(
      'an event after the reconnect',
      async () => {
        worker.hub.publish({ kind: 'maintenance', change: 'updated', windowId: 42 });
        await new Promise((r) => setTimeout(r, 200));
        return seen.some((e) => e.kind === 'maintenance') ? true : undefined;
      },
      10_000,
    );
  });
});
