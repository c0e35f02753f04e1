import { IncidentDetail, IncidentPage, Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { openEventStream } from '../support/sse.js';

/** The real scheduler against a real loopback target: an outage opens and closes an incident. */
describe.each(engines)('incidents from live checks on %s', (engine) => {
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

  const get = async (path: string) =>
    (await fetch(`${t.url}${path}`, { headers: t.owner.headers })).json();

  it('opens an incident with the first failure as cause, then resolves it with the outage duration', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'http',
        name: 'Checkout',
        url: `${target.url}/ok`,
        retries: 1,
        interval: 60,
        timeout: 5,
      });
      const id = Monitor.parse(created.body).id;
      await stream.waitFor((e) => e.kind === 'status' && e.monitorId === id && e.to === 'up');

      // The first failure (HTTP 503) and the confirming one (connection reset) differ: the
      // incident must name the first.
      target.setMode('down');
      await post(t, `/api/v1/monitors/${id}/check-now`);
      const first = await stream.waitFor(
        (e) => e.kind === 'result' && e.monitorId === id && e.result.outcome === 'down',
      );
      if (first.event.kind !== 'result') throw new Error('unreachable');
      expect(first.event.result.errorCode).toBe('http_status');
      target.setMode('reset');
      await post(t, `/api/v1/monitors/${id}/check-now`);
      const opened = await stream.waitFor(
        (e) => e.kind === 'incident' && e.monitorId === id && e.change === 'created',
      );
      const down = stream.events.find(
        (e) => e.event.kind === 'status' && e.event.monitorId === id && e.event.to === 'down',
      );
      expect(down?.event).toMatchObject({ errorCode: 'connection_reset' });
      // Published after the status change it belongs to.
      expect(stream.events.indexOf(opened)).toBeGreaterThan(stream.events.indexOf(down!));
      if (opened.event.kind !== 'incident') throw new Error('unreachable');
      expect(opened.event).toMatchObject({
        monitorIds: [id],
        title: 'Checkout is down',
        state: 'investigating',
        automatic: true,
      });
      const incidentId = opened.event.incidentId;
      const open = IncidentDetail.parse(await get(`/api/v1/incidents/${incidentId}`));
      expect(open).toMatchObject({
        state: 'investigating',
        startedAt: first.event.result.at,
        cause: { at: first.event.result.at, code: 'http_status' },
      });
      expect(open.cause?.message).toContain('503');

      target.setMode('normal');
      await post(t, `/api/v1/monitors/${id}/check-now`);
      const resolved = await stream.waitFor(
        (e) => e.kind === 'incident' && e.incidentId === incidentId && e.change === 'resolved',
      );
      expect(resolved.event).toMatchObject({ state: 'resolved', monitorId: id });
      const closed = IncidentDetail.parse(await get(`/api/v1/incidents/${incidentId}`));
      expect(closed.state).toBe('resolved');
      expect(Date.parse(closed.resolvedAt!)).toBeGreaterThan(Date.parse(closed.startedAt));
      expect(closed.updates[0]).toMatchObject({
        state: 'resolved',
        automatic: true,
        message: expect.stringMatching(/^Resolved automatically: back up after \d+ s$/),
      });
      const page = IncidentPage.parse(await get(`/api/v1/incidents?monitorId=${id}`));
      expect(page.items.map((i) => i.id)).toEqual([incidentId]);
    } finally {
      stream.close();
    }
  });
});
