import { Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedPort } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postgresUrl } from '../support/engines.js';
import { parseExposition, pick, valueOf, type Sample } from '../support/prometheus.js';
import { until } from '../support/until.js';

async function scrape(t: TestApp): Promise<Sample[]> {
  const res = await t.inject({ url: '/metrics', headers: { authorization: '' } });
  expect(res.statusCode, res.body).toBe(200);
  return parseExposition(res.body);
}

describe.runIf(postgresUrl)('/metrics of a web process and a scheduler process', () => {
  let web: TestApp;
  let worker: TestApp;

  beforeAll(async () => {
    web = await startTestApp({ engine: 'postgres' });
    worker = await startTestApp({ engine: 'postgres', sharing: web, scheduler: true });
  });
  afterAll(async () => {
    await worker?.stop();
    await web?.stop();
  });

  it('shows on the web process what the scheduler found; counts only where checks ran', async () => {
    const created = await web.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'tcp', name: 'Split', host: '127.0.0.1', port: await refusedPort() },
    });
    expect(created.statusCode, created.body).toBe(201);
    const labels = { monitor_id: String(Monitor.parse(created.json()).id) };
    // Read now, while pending: the down that follows reaches it as shared events, not a re-read.
    const before = await scrape(web);
    expect(valueOf(before, 'pagewatch_monitor_status', { ...labels, status: 'pending' })).toBe(1);

    await until('the web process showing the monitor down', async () => {
      const samples = await scrape(web);
      return valueOf(samples, 'pagewatch_monitor_up', labels) === 0 ? true : undefined;
    });
    const onWeb = await scrape(web);
    expect(pick(onWeb, 'pagewatch_monitor_checks_total')).toEqual([]);
    expect(valueOf(onWeb, 'pagewatch_checks_total', { outcome: 'down' })).toBe(0);

    const onWorker = await scrape(worker);
    expect(valueOf(onWorker, 'pagewatch_monitor_up', labels)).toBe(0);
    const down = valueOf(onWorker, 'pagewatch_monitor_checks_total', {
      ...labels,
      outcome: 'down',
    });
    expect(down).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(onWorker, 'pagewatch_monitor_failures_total', { ...labels, code: 'connect_refused' }),
    ).toBe(down);
  });
});
