import { Monitor, Settings } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { until } from '../support/until.js';

/**
 * Settings across the processes of one deployment, and "delete all data" while the scheduler
 * checks: a web process's change reaches the scheduler's process through the database, and
 * the deleted monitors leave the running scheduler.
 */
describe.each(engines)('settings with a running scheduler on %s', (engine) => {
  let target: TargetServer;
  let scheduler: TestApp;
  let web: TestApp;

  beforeAll(async () => {
    target = await startTargetServer();
    scheduler = await startTestApp({ engine, scheduler: true, listen: true });
    web = await startTestApp({ engine, sharing: scheduler });
  });
  afterAll(async () => {
    await web?.stop();
    await scheduler?.stop();
    await target?.close();
  });

  const settingsOf = async (app: TestApp) =>
    Settings.parse((await app.inject({ url: '/api/v1/settings' })).json());

  it('shows a change made through another process within the cache time', async () => {
    const before = await settingsOf(scheduler);
    const res = await web.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      payload: { general: { instanceName: 'Two processes', timeZone: 'Asia/Kolkata' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(before.general.instanceName).toBe('Pagewatch');
    const seen = await until('the scheduler process to read the change', async () => {
      const s = await settingsOf(scheduler);
      return s.general.instanceName === 'Two processes' ? s : undefined;
    });
    expect(seen.general.timeZone).toBe('Asia/Kolkata');
  });

  it('takes deleted monitors out of the running scheduler and records nothing more for them', async () => {
    const ids: number[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const created = await post(scheduler, '/api/v1/monitors', {
        type: 'http',
        name,
        url: `${target.url}/ok`,
        interval: 10,
        timeout: 5,
      });
      expect(created.status).toBe(201);
      ids.push(Monitor.parse(created.body).id);
    }
    const engine = scheduler.engine!;
    await until('every monitor checked once', async () => {
      const rows = await scheduler.database.db
        .selectFrom('check_results')
        .select('monitor_id')
        .execute();
      return new Set(rows.map((r) => r.monitor_id)).size === 3 ? true : undefined;
    });
    expect(engine.load().monitors).toBe(3);

    const res = await scheduler.inject({
      method: 'POST',
      url: '/api/v1/settings/delete-all-data',
      payload: { confirm: 'Two processes' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await until('the scheduler to drop them', () =>
      engine.load().monitors === 0 ? true : undefined,
    );
    // A check in flight at the deletion finishes; its result is not stored for a monitor gone.
    await until('no check in flight', () => (engine.load().inFlight === 0 ? true : undefined));
    const left = await scheduler.database.db.selectFrom('check_results').select('id').execute();
    expect(left).toEqual([]);

    // The instance works on: a new monitor is checked as before.
    const again = await post(scheduler, '/api/v1/monitors', {
      type: 'http',
      name: 'After',
      url: `${target.url}/ok`,
    });
    expect(again.status).toBe(201);
    const id = Monitor.parse(again.body).id;
    expect(ids).not.toContain(id);
    await until('the new monitor checked', async () => {
      const rows = await scheduler.database.db
        .selectFrom('check_results')
        .select('id')
        .where('monitor_id', '=', id)
        .execute();
      return rows.length > 0 ? true : undefined;
    });
  });
});
