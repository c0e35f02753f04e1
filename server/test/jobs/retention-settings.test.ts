import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { randomCheck, rng, toWrite } from '../support/history.js';
import { json } from '../support/status-page-api.js';
import { until } from '../support/until.js';

const DAY = 86_400_000;

describe.each(engines)('retention from the stored settings on %s', (engine) => {
  let t: TestApp;
  let repos: Repositories;

  beforeAll(async () => {
    // The running job, a pass every 100 ms: the settings must reach it without a restart.
    t = await startTestApp({
      engine,
      scheduler: true,
      retention: { firstAfterMs: 10, everyMs: 100, pauseMs: 0 },
    });
    repos = repositories(t.database);
  });
  afterAll(async () => t?.stop());

  /** The times of the monitor's raw results and day buckets, oldest first. */
  const held = async (id: number) => {
    const raw = await t.database.db
      .selectFrom('check_results')
      .select('at')
      .where('monitor_id', '=', id)
      .execute();
    const days = await t.database.db
      .selectFrom('rollup_day')
      .select('bucket')
      .where('monitor_id', '=', id)
      .execute();
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    return {
      raw: sorted(raw.map((r) => Number(r.at))),
      day: sorted(days.map((r) => Number(r.bucket))),
    };
  };

  it('deletes what a changed retention no longer keeps, from the next pass of the running job', async () => {
    // Paused: the scheduler adds no results of its own.
    const { id } = await repos.monitors.insert(monitorInput({ paused: true }), Date.now());
    const r = rng(3);
    // Days old: far from every keep below, so the job's own clock reading does not matter.
    const ats = [500, 40, 20, 12, 2].map((d) => Date.now() - d * DAY - 3_600_000);
    const dayOf = (at: number) => Math.floor(at / DAY) * DAY;
    await repos.results.writeBatch(ats.map((at) => toWrite(randomCheck(r, id, at))));
    // Under the defaults (30 days raw, day rollups forever) only the 500- and 40-day results go.
    await until('the default pass', async () =>
      (await held(id)).raw.length === 3 ? true : undefined,
    );
    expect(await held(id)).toEqual({ raw: ats.slice(2), day: ats.map(dayOf) });

    const res = await t.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      ...json({
        retention: { rawDays: 10, minuteRollupDays: 30, hourRollupDays: 200, dayRollupDays: 400 },
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    await until('a pass with the new keeps', async () => {
      const now = await held(id);
      return now.raw.length === 1 && now.day.length === 4 ? true : undefined;
    });
    expect(await held(id)).toEqual({ raw: ats.slice(4), day: ats.slice(1).map(dayOf) });
  });
});
