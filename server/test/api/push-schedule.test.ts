import { Monitor, PushPingReply, type CheckResult } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { openEventStream, type EventStream } from '../support/sse.js';

/** Time the test can move forward: the app, its scheduler and its limiter all read it. */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

/** A push monitor on a cron schedule, fed through the real push endpoint over HTTP. */
describe.each(engines)('a cron-scheduled push monitor on %s', (engine) => {
  let t: TestApp;
  let stream: EventStream;
  beforeAll(async () => {
    t = await startTestApp({ engine, scheduler: true, listen: true, clock });
    stream = await openEventStream(t.url, undefined, t.owner.headers);
  });
  afterAll(async () => {
    stream.close();
    await t.stop();
  });

  async function read(id: number) {
    const m = Monitor.parse((await t.inject({ url: `/api/v1/monitors/${id}` })).json());
    if (m.type !== 'push') throw new Error('expected a push monitor');
    return m;
  }

  it('refuses a schedule that does not parse, under the expression field', async () => {
    const res = await post(t, '/api/v1/monitors', {
      type: 'push',
      name: 'Nightly',
      schedule: { kind: 'cron', expression: '30 26 * * *', timezone: 'Europe/Berlin' },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('The hour 26 is outside 0–23');
    expect(JSON.stringify(res.body)).toContain('schedule.expression');
  });

  it('times /start to the success ping, shows the next expected run, and misses it after the grace', async () => {
    // Put the app's clock 5 s before a minute boundary (the scheduler's timers run in real time,
    // so the clock is not moved again once the monitor is scheduled).
    const boundary = Math.ceil((clock.now() + 10_000) / 60_000) * 60_000;
    clock.offset += boundary - 5_000 - clock.now();
    const res = await post(t, '/api/v1/monitors', {
      type: 'push',
      name: 'Every minute',
      retries: 0,
      graceSeconds: 2,
      schedule: { kind: 'cron', expression: '* * * * *', timezone: 'Europe/Berlin' },
    });
    expect(res.status).toBe(201);
    const created = Monitor.parse(res.body);
    if (created.type !== 'push' || !created.pushToken) throw new Error('expected a push token');
    expect(created.schedule).toEqual({
      kind: 'cron',
      expression: '* * * * *',
      timezone: 'Europe/Berlin',
    });
    expect(created.nextPingExpectedAt).toBe(new Date(boundary).toISOString());
    await vi.waitFor(() => expect(t.engine!.checkNow(created.id)).toBe(true));
    const url = `${t.url}/api/push/${created.pushToken}`;

    const started = await fetch(`${url}/start`, { headers: { accept: 'application/json' } });
    expect(PushPingReply.parse(await started.json())).toEqual({ ok: true, recorded: 'started' });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await (await fetch(url)).text()).toBe('OK');
    const ok = await stream.waitFor(
      (e) => e.kind === 'result' && e.monitorId === created.id && e.result.outcome === 'up',
    );
    const runMs = (ok.event as { result: CheckResult }).result.latencyMs!;
    expect(runMs).toBeGreaterThanOrEqual(1200);
    expect(runMs).toBeLessThan(3000);

    const page = await read(created.id);
    expect(page).toMatchObject({
      status: 'up',
      lastRunMs: runMs,
      nextPingExpectedAt: new Date(boundary).toISOString(),
    });

    // No ping for the run at the boundary: a miss 2 s after it.
    const missed = await stream.waitFor(
      (e) => e.kind === 'result' && e.monitorId === created.id && e.result.outcome === 'down',
      10_000,
    );
    const result = (missed.event as { result: CheckResult }).result;
    expect(result.errorCode).toBe('heartbeat_missed');
    expect(result.errorMessage).toMatch(
      /^No ping for \d+ s; expected on "\* \* \* \* \*" \(Europe\/Berlin\) \+ 2 s grace$/,
    );
    expect(Date.parse(result.at)).toBeGreaterThanOrEqual(boundary + 2000);
    // Overdue: the page now names the next run.
    expect((await read(created.id)).nextPingExpectedAt).toBe(
      new Date(boundary + 60_000).toISOString(),
    );
  });
});
