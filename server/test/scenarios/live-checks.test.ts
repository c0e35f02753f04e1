import { CheckPage, Monitor, MonitorList } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { post } from '../support/http.js';
import { repositories } from '../../src/db/repositories/index.js';
import { uptimePercent } from '../../src/domain/percentiles.js';
import { presentSummary } from '../../src/services/monitors/present-summary.js';
import { engines } from '../support/engines.js';
import { openEventStream } from '../support/sse.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';

/** The whole app, with its scheduler, against real loopback targets, watched through SSE. */
describe.each(engines)('live checks on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;

  beforeAll(async () => {
    target = await startTargetServer();
    t = await startTestApp({ engine, scheduler: true, listen: true });
  });
  afterAll(async () => {
    await t.stop();
    await target.close();
  });

  it('checks a new monitor at once, then reports up → down → up live, and keeps that history', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'http',
        name: 'Target',
        url: `${target.url}/ok`,
        retries: 1,
        interval: 60,
        timeout: 5,
      });
      expect(created.status).toBe(201);
      const id = Monitor.parse(created.body).id;

      const up = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.to === 'up',
      );
      expect(up.event).toMatchObject({ from: 'pending' });

      target.setMode('down');
      await post(t, `/api/v1/monitors/${id}/check-now`);
      const firstFailure = await stream.waitFor(
        (e) => e.kind === 'result' && e.monitorId === id && e.result.outcome === 'down',
      );
      // retries = 1: one failure is not yet an outage.
      expect(firstFailure.event).toMatchObject({
        status: 'up',
        result: { errorCode: 'http_status', httpStatus: 503 },
      });
      await post(t, `/api/v1/monitors/${id}/check-now`);
      const down = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.to === 'down',
      );
      expect(down.event).toMatchObject({ from: 'up', errorCode: 'http_status' });

      target.setMode('normal');
      await post(t, `/api/v1/monitors/${id}/check-now`);
      await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.from === 'down' && e.to === 'up',
      );

      // The writer commits before it publishes, so what SSE said is what the API reads.
      const list = MonitorList.parse(
        await (await fetch(`${t.url}/api/v1/monitors`, { headers: t.owner.headers })).json(),
      );
      expect(list.items.find((m) => m.id === id)).toMatchObject({
        status: 'up',
        recent: { outcomes: 'uddu' },
      });
      const checks = CheckPage.parse(
        await (
          await fetch(`${t.url}/api/v1/monitors/${id}/checks`, { headers: t.owner.headers })
        ).json(),
      );
      expect(checks.items.map((c) => c.outcome)).toEqual(['up', 'down', 'down', 'up']);
      expect(checks.items[0]?.phases.ttfb).toBeGreaterThan(0);
      expect(checks.items[0]?.phases.connect).toBeGreaterThanOrEqual(0);
    } finally {
      stream.close();
    }
  });

  it('serves the dashboard list from memory exactly as the database would answer it', async () => {
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name: 'Aardvark first',
      url: `${target.url}/ok`,
      interval: 60,
      timeout: 5,
    });
    const id = Monitor.parse(created.body).id;
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      await post(t, `/api/v1/monitors/${id}/check-now`);
      await stream.waitFor((e) => e.kind === 'result' && e.monitorId === id);
    } finally {
      stream.close();
    }
    await post(t, `/api/v1/monitors/${id}/pause`);
    await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${id}`,
      payload: {
        type: 'http',
        name: 'Zebra last',
        url: `${target.url}/ok`,
        interval: 60,
        timeout: 5,
        paused: true,
      },
    });
    await new Promise((r) => setTimeout(r, 100));
    const fromMemory = MonitorList.parse((await t.inject('/api/v1/monitors')).json());
    const repos = repositories(t.database);
    const uptime = new Map(
      (await repos.monitors.uptime24h(Date.now())).map((u) => [
        u.monitorId,
        uptimePercent(u.up, u.degraded, u.checks),
      ]),
    );
    const fromDb = (await repos.monitors.list()).map((m) =>
      presentSummary(m, uptime.get(m.id) ?? null),
    );
    expect(fromMemory.items).toEqual(fromDb);
    expect(fromMemory.items.at(-1)).toMatchObject({ name: 'Zebra last', status: 'paused' });
  });

  it('resumes an event stream from Last-Event-ID without losing events', async () => {
    const first = await openEventStream(t.url, undefined, t.owner.headers);
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name: 'Resume',
      url: `${target.url}/ok`,
      interval: 60,
      timeout: 5,
    });
    const id = Monitor.parse(created.body).id;
    const seen = await first.waitFor((e) => e.kind === 'monitor' && e.monitorId === id);
    first.close();

    // Events published while no client is connected…
    await post(t, `/api/v1/monitors/${id}/pause`);
    const resumed = await openEventStream(t.url, seen.id ?? undefined, t.owner.headers);
    try {
      // …arrive on reconnect, in order, and nothing from before the given id is repeated.
      await resumed.waitFor(
        (e) => e.kind === 'monitor' && e.monitorId === id && e.change === 'updated',
      );
      expect(resumed.events.some((e) => e.id === seen.id)).toBe(false);
    } finally {
      resumed.close();
    }
  });

  it('tells a client whose Last-Event-ID is unknown (e.g. from before a restart) to reload', async () => {
    const stream = await openEventStream(t.url, 'deadbeef-5', t.owner.headers);
    try {
      await stream.waitFor((e) => e.kind === 'reset', 2000);
    } finally {
      stream.close();
    }
  });

  it('records failures precisely: a refused port is connect_refused with no latency', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'http',
        name: 'Refused',
        url: 'http://127.0.0.1:9/',
        retries: 0,
        interval: 60,
        timeout: 5,
      });
      const id = Monitor.parse(created.body).id;
      const e = await stream.waitFor((ev) => ev.kind === 'result' && ev.monitorId === id);
      expect(e.event).toMatchObject({
        status: 'down',
        result: { outcome: 'down', errorCode: 'connect_refused', latencyMs: null },
      });
    } finally {
      stream.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight check finish and writes its result before closing', async () => {
    const target = await startTargetServer();
    const t = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true });
    const results: string[] = [];
    t.hub.subscribe(({ event }) => event.kind === 'result' && results.push(event.result.outcome));
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'http',
        name: 'Slow',
        url: `${target.url}/slow?ms=800`,
        interval: 60,
        timeout: 5,
      });
      expect(created.status).toBe(201);
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      await t.stop();
      expect(results).toEqual(['up']);
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    } finally {
      await target.close();
    }
  });
});
