import { Monitor, MonitorList } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { openEventStream } from '../support/sse.js';

/** The app's clock, moved forward by the test instead of waiting out the 10 s minimum interval. */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

/** The whole path: pings over HTTP keep a push monitor up; silence past its deadline takes it down. */
describe.each(engines)('a live push monitor on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine, scheduler: true, listen: true, clock });
  });
  afterAll(async () => t.stop());

  it('is up while pings come, and down with heartbeat_missed once they stop', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'push',
        name: 'Cron',
        interval: 10,
        graceSeconds: 5,
        retries: 0,
      });
      expect(created.status).toBe(201);
      const m = Monitor.parse(created.body);
      if (m.type !== 'push') throw new Error('expected push');
      const url = `${t.url}${m.pushUrl}`;
      await vi.waitFor(async () => expect((await fetch(url)).status).toBe(200));
      const up = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === m.id && e.to === 'up',
      );
      expect(up.event).toMatchObject({ from: 'pending' });

      // Pings 12 s apart: later than the interval, within the grace. The deadline is due each
      // time a little before the ping ("check now" runs it at once), and is put off by it.
      for (let i = 0; i < 3; i++) {
        clock.offset += 12_000;
        expect(t.engine!.checkNow(m.id)).toBe(true);
        expect((await fetch(url)).status).toBe(200);
      }
      const results = () =>
        stream.events.filter((e) => e.event.kind === 'result' && e.event.monitorId === m.id);
      await vi.waitFor(() => expect(results()).toHaveLength(4));
      expect(results().map((e) => e.event.kind === 'result' && e.event.result.outcome)).toEqual([
        'up',
        'up',
        'up',
        'up',
      ]);

      // Then nothing: 16 s later the deadline (10 s + 5 s grace) has passed.
      clock.offset += 16_000;
      expect(t.engine!.checkNow(m.id)).toBe(true);
      const down = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === m.id && e.to === 'down',
      );
      expect(down.event).toMatchObject({ from: 'up', errorCode: 'heartbeat_missed' });
      expect(down.event.kind === 'status' && down.event.message).toMatch(
        // 16 s on the test's clock plus the real seconds the test took.
        /^No ping for \d+ s; expected every 10 s \+ 5 s grace$/,
      );

      const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
      expect(list.items.find((i) => i.id === m.id)).toMatchObject({
        status: 'down',
        target: 'push',
        lastCheck: { outcome: 'down', errorCode: 'heartbeat_missed' },
        // Each round that passes without a ping is another missed heartbeat.
        recent: { outcomes: expect.stringMatching(/^uuuud+$/) },
      });

      // A ping brings it straight back.
      expect((await fetch(url)).status).toBe(200);
      await stream.waitFor((e) => e.kind === 'status' && e.monitorId === m.id && e.to === 'up');
    } finally {
      stream.close();
    }
  });
});
