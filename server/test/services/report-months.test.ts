import { Report } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import type { ServiceDeps } from '../../src/services/deps.js';
import { buildReport } from '../../src/services/reports/build.js';
import { prepareReportMonths } from '../../src/services/reports/warm.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { batches, randomCheck, rng, toWrite, type GenCheck } from '../support/history.js';
import { json } from '../support/status-page-api.js';

const HOUR = 3_600_000;
/** Mid-April 2026: the closed months are May 2025 to March 2026. */
const NOW = Date.parse('2026-04-15T10:30:00Z');
const FROM = Date.parse('2025-03-20T00:00:00Z');
const ZONE = 'Europe/Berlin';

/**
 * Closed months kept ready for reports (issue 20, ADR 75): the last 12 closed months of every
 * monitor merged once, in UTC and in every zone people report in, stored, and read by later
 * reports in any process; what changes since is merged again.
 */
describe.each(engines)('closed months made ready for reports on %s', (engine) => {
  let t: TestApp;
  let repos: Repositories;
  const ids: number[] = [];
  const r = rng(20260415);
  const deps = () => ({ repos, clock: { now: () => NOW } }) as unknown as ServiceDeps;
  const stored = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('rollup_run_sketches')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const yearReport = async (zone: string) => {
    const res = await t.inject({
      url: `/api/v1/reports?subject=tag&id=ready&range=custom&from=2025-04-01&to=2026-03-31&timeZone=${encodeURIComponent(zone)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return Report.parse(res.json());
  };

  beforeAll(async () => {
    // The job's own pass is an hour away: these tests run the pass themselves.
    t = await startTestApp({
      engine,
      clock: { now: () => NOW },
      reportMonths: { firstMs: 3_600_000 },
    });
    repos = repositories(t.database);
    for (let i = 0; i < 2; i += 1) {
      ids.push((await repos.monitors.insert(monitorInput({ tags: ['ready'] }), FROM)).id);
    }
    const checks: GenCheck[] = [];
    for (const id of ids) {
      for (let at = FROM; at < NOW; at += 1 + Math.floor(r() * 8 * HOUR)) {
        checks.push(randomCheck(r, id, at));
      }
    }
    for (const batch of batches(r, checks, 200)) await repos.results.writeBatch(batch.map(toWrite));
    // A status page in Berlin: a zone people read months in.
    const page = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      ...json({
        slug: `ready-${engine}`,
        title: 'Acme',
        published: true,
        timeZone: ZONE,
        show: { uptimeBars: true, monthlyUptime: true },
        sections: [{ title: 'Core', components: [{ monitorId: ids[0]! }] }],
      }),
    });
    expect(page.statusCode, page.body).toBe(201);
  }, 300_000);
  afterAll(async () => t?.stop());

  it('merges each closed month once per monitor and zone, and stores it', async () => {
    expect(await stored()).toBe(0);
    const first = await prepareReportMonths(deps());
    expect(first.zones).toEqual(['UTC', ZONE]);
    expect(first.monitors).toBe(2);
    // 12 months, 2 monitors, 2 zones: Berlin's months are other runs of days than UTC's.
    expect(first.merged).toBe(12 * 2 * 2);
    expect(await stored()).toBe(12 * 2 * 2);
    // Again, and in another process: nothing left to merge.
    expect((await prepareReportMonths(deps())).merged).toBe(0);
    repos = repositories(t.database);
    expect((await prepareReportMonths(deps())).merged).toBe(0);
  });

  it('merges again only the month a late result changed', async () => {
    const late = { ...randomCheck(r, ids[1]!, Date.parse('2025-09-10T12:00:00Z')) };
    late.latencyUs = 59_000_000;
    await repos.results.writeBatch([toWrite(late)]);
    repos = repositories(t.database);
    // September in UTC and in Berlin.
    expect((await prepareReportMonths(deps())).merged).toBe(2);
  });

  it('gives the same year report from the stored months as from the days', async () => {
    const query = (timeZone: string) => ({
      subject: 'tag' as const,
      id: 'ready',
      range: 'custom' as const,
      from: '2025-04-01',
      to: '2026-03-31',
      timeZone,
      degradedIsDown: false,
    });
    // A new process: nothing kept in memory, the stored months read.
    const fromStored = (zone: string) =>
      buildReport({ ...deps(), repos: repositories(t.database) }, query(zone));
    const ready = { utc: await fromStored('UTC'), zoned: await fromStored(ZONE) };
    await t.database.db.deleteFrom('rollup_run_sketches').execute();
    const fromDays = { utc: await fromStored('UTC'), zoned: await fromStored(ZONE) };
    expect(fromDays).toEqual(ready);
    expect(ready.utc.monitors[0]!.periods).toHaveLength(12);
    expect(ready.zoned.monitors[1]!.latency.p99).toBeGreaterThan(0);
    // And the API's report says the same.
    expect(await yearReport(ZONE)).toEqual(Report.parse(JSON.parse(JSON.stringify(ready.zoned))));
  });
});

describe.each(engines)('the report-months job on %s', (engine) => {
  let t: TestApp;

  afterAll(async () => t?.stop());

  it('stores the closed months soon after the process takes its lease', async () => {
    t = await startTestApp({
      engine,
      clock: { now: () => NOW },
      // Its roles started: the process joins the cluster and takes the free singletons.
      scheduler: true,
      reportMonths: { firstMs: 50, everyMs: 300 },
    });
    const repos = repositories(t.database);
    const id = (await repos.monitors.insert(monitorInput(), FROM)).id;
    const checks: GenCheck[] = [];
    for (let at = Date.parse('2026-01-01T00:00:00Z'); at < NOW; at += 6 * HOUR) {
      checks.push({ ...randomCheck(rng(at), id, at), outcome: 'up', latencyUs: 120_000 });
    }
    await repos.results.writeBatch(checks.map(toWrite));
    // The first pass may have run before the monitor existed; a next one finds it.
    const rows = async () =>
      t.database.db
        .selectFrom('rollup_run_sketches')
        .select(['run_from', 'run_to'])
        .where('monitor_id', '=', id)
        .orderBy('run_from')
        .execute();
    await expect.poll(async () => (await rows()).length, { timeout: 15_000 }).toBe(3);
    expect((await rows()).map((x) => new Date(Number(x.run_from)).toISOString())).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
  });
});
