import { CheckPage, MaintenanceWindow, Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { openEventStream } from '../support/sse.js';

/**
 * The real scheduler against a loopback target that fails while a maintenance window is
 * active: checks go on and are recorded, nothing flips to down on the stream, the monitor
 * shows `maintenance`, and when the window ends by itself its real status shows.
 */
describe.each(engines)('maintenance window over live checks on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  const writes: ResultWrite[] = [];

  beforeAll(async () => {
    target = await startTargetServer();
    t = await startTestApp({ engine, scheduler: true, listen: true });
    // See every write the scheduler hands the writer, then let it through unchanged.
    const writer = t.engine!.writer;
    const enqueue = writer.enqueue.bind(writer);
    writer.enqueue = (write: ResultWrite) => {
      writes.push(write);
      enqueue(write);
    };
  });
  afterAll(async () => {
    await t.stop();
    await target.close();
  });

  const get = async (path: string) =>
    (await fetch(`${t.url}${path}`, { headers: t.owner.headers })).json();

  it('records failures as maintenance, raises no down, and shows the real status after', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'http',
        name: 'Behind maintenance',
        url: `${target.url}/ok`,
        retries: 0,
        interval: 3600,
        timeout: 5,
      });
      const id = Monitor.parse(created.body).id;
      await stream.waitFor((e) => e.kind === 'status' && e.monitorId === id && e.to === 'up');

      // A window that began a minute ago and ends by itself in a few seconds.
      const endsAt = new Date(Math.ceil((Date.now() + 8000) / 1000) * 1000).toISOString();
      const res = await post(t, '/api/v1/maintenance', {
        title: 'Target upgrade',
        timezone: 'UTC',
        scope: { kind: 'monitors', monitorIds: [id] },
        schedule: {
          kind: 'once',
          startsAt: new Date(Date.now() - 60_000).toISOString(),
          endsAt,
        },
      });
      expect(res.status).toBe(201);
      expect(MaintenanceWindow.parse(res.body).state).toBe('active');
      const entered = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.to === 'maintenance',
      );
      expect(entered.event).toMatchObject({ from: 'up' });

      target.setMode('down');
      await post(t, `/api/v1/monitors/${id}/check-now`);
      const failed = await stream.waitFor(
        (e) => e.kind === 'result' && e.monitorId === id && e.result.outcome === 'down',
      );
      expect(failed.event).toMatchObject({
        status: 'maintenance',
        result: { errorCode: 'http_status' },
      });
      expect(Monitor.parse(await get(`/api/v1/monitors/${id}`)).status).toBe('maintenance');
      // The outage inside the window opened no incident.
      expect(await get(`/api/v1/incidents?monitorId=${id}`)).toMatchObject({
        items: [],
      });

      // The window ends on its own: the boundary timer shows what the checks found.
      const left = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.from === 'maintenance',
        30_000,
      );
      expect(left.event).toMatchObject({ to: 'down', at: endsAt, errorCode: 'http_status' });
      const shown = stream.events.filter(
        (e) => e.event.kind === 'status' && e.event.monitorId === id,
      );
      // up, into maintenance, out of it: the failure inside raised no status change of its own.
      expect(shown.map((e) => e.event.kind === 'status' && e.event.to)).toEqual([
        'up',
        'maintenance',
        'down',
      ]);
      expect(Monitor.parse(await get(`/api/v1/monitors/${id}`)).status).toBe('down');

      // Both checks were recorded; the one inside the window says so on its write.
      const checks = CheckPage.parse(await get(`/api/v1/monitors/${id}/checks`));
      expect(checks.items.map((c) => c.outcome)).toEqual(['down', 'up']);
      const mine = writes.filter((w) => w.monitorId === id);
      expect(mine.map((w) => [w.run.outcome, w.status, w.maintenance])).toEqual([
        ['up', 'up', false],
        ['down', 'down', true],
      ]);
      // The state machine ran underneath: the flip to down is in the write, not on the stream.
      expect(mine[1]?.flip).toEqual({ from: 'up', to: 'down' });

      // After the window, the next failure is an ordinary one again.
      target.setMode('normal');
      await post(t, `/api/v1/monitors/${id}/check-now`);
      await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.from === 'down' && e.to === 'up',
      );
      expect(writes.filter((w) => w.monitorId === id).at(-1)?.maintenance).toBe(false);
    } finally {
      stream.close();
    }
  });
});
