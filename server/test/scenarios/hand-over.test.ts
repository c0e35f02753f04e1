import { CheckPage, Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHitLogTarget, type HitLogTarget } from '../fixtures/hit-log-target.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { parseExposition, valueOf } from '../support/prometheus.js';
import { until } from '../support/until.js';

/**
 * Any process serves any request (issue 14, ADR 24): a web-only process takes push pings and
 * check-now requests and hands them to the process that schedules the monitor, through the
 * database; the scheduling process records them as its own.
 */
describe.each(engines)('push pings and check-now sent to a web-only process (%s)', (engine) => {
  let web: TestApp;
  let scheduler: TestApp;
  let target: HitLogTarget;
  let push: Monitor;
  let page: Monitor;

  beforeAll(async () => {
    target = await startHitLogTarget();
    web = await startTestApp({ engine, listen: true });
    // Made before the scheduling process starts: it learns of them from the database alone.
    const create = async (payload: object) =>
      Monitor.parse(
        (await web.inject({ method: 'POST', url: '/api/v1/monitors', payload })).json(),
      );
    push = await create({ type: 'push', name: 'Nightly backup', interval: 3600 });
    page = await create({ type: 'http', name: 'Page', url: target.url('page'), interval: 3600 });
    scheduler = await startTestApp({ engine, sharing: web, scheduler: true });
  });
  afterAll(async () => {
    await scheduler?.stop();
    await web?.stop();
    await target?.close();
  });

  const results = async (id: number) => {
    const res = await web.inject({ url: `/api/v1/monitors/${id}/checks?limit=50` });
    expect(res.statusCode, res.body).toBe(200);
    return CheckPage.parse(res.json()).items;
  };
  const claimed = async () => {
    const res = await scheduler.inject({ url: '/metrics', headers: { authorization: '' } });
    return valueOf(parseExposition(res.body), 'pagewatch_cluster_requests_total', {
      direction: 'claimed',
    });
  };
  const waiting = () => web.database.db.selectFrom('check_requests').select('id').execute();

  it('records a ping that reached the web process, with its message and status', async () => {
    if (push.type !== 'push') throw new Error('expected a push monitor');
    const ping = await fetch(`${web.url}/api/push/${push.pushToken}/fail?msg=disk%20full`);
    expect(ping.status).toBe(200);
    const [result] = await until('the handed-over ping to be recorded', async () => {
      const items = await results(push.id);
      return items.length > 0 ? items : undefined;
    });
    expect(result).toMatchObject({ outcome: 'down', errorMessage: 'disk full' });
    expect(await waiting()).toEqual([]);
    expect(await claimed()).toBe(1);
  });

  it('runs a check-now that reached the web process on the scheduling process', async () => {
    const hitsBefore = target.hits.length;
    const asked = await web.inject({
      method: 'POST',
      url: `/api/v1/monitors/${page.id}/check-now`,
    });
    expect(asked.statusCode, asked.body).toBe(202);
    await until('the handed-over check to reach the target', () =>
      target.hits.length > hitsBefore ? true : undefined,
    );
    await until('its result to be recorded', async () =>
      (await results(page.id)).length > 0 ? true : undefined,
    );
    expect(await waiting()).toEqual([]);
    expect(await claimed()).toBe(2);
  });
});
