import { Monitor, MonitorList } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { post } from '../support/http.js';
import { engines } from '../support/engines.js';
import { openEventStream } from '../support/sse.js';
import { startTcpServer, type TcpServer } from '../fixtures/tcp-server.js';

/** The scheduler runs tcp checks like any other: up while the listener answers, down once it is gone. */
describe.each(engines)('a live tcp monitor on %s', (engine) => {
  let t: TestApp;
  let listener: TcpServer;

  beforeAll(async () => {
    listener = await startTcpServer('banner', { banner: '+READY\r\n' });
    t = await startTestApp({ engine, scheduler: true, listen: true });
  });
  afterAll(async () => {
    await t.stop();
    await listener.close();
  });

  it('is up with its banner, then down (connect_refused) when the listener closes', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'tcp',
        name: 'Queue',
        host: '127.0.0.1',
        port: listener.port,
        expect: '+READY',
        retries: 0,
        interval: 60,
        timeout: 5,
      });
      expect(created.status).toBe(201);
      const id = Monitor.parse(created.body).id;

      const up = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.to === 'up',
      );
      expect(up.event).toMatchObject({ from: 'pending' });

      await listener.close();
      await post(t, `/api/v1/monitors/${id}/check-now`);
      const down = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.to === 'down',
      );
      expect(down.event).toMatchObject({ from: 'up', errorCode: 'connect_refused' });

      const list = MonitorList.parse(
        await (await fetch(`${t.url}/api/v1/monitors`, { headers: t.owner.headers })).json(),
      );
      expect(list.items.find((i) => i.id === id)).toMatchObject({
        status: 'down',
        target: `127.0.0.1:${listener.port}`,
        lastCheck: { outcome: 'down', errorCode: 'connect_refused', latencyMs: null },
      });
    } finally {
      stream.close();
    }
  });
});
