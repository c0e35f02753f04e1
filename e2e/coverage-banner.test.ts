import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { dueOf, roundAt } from '../server/src/domain/schedule.js';
import { sweepCoverage } from '../server/src/jobs/coverage-sweep.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { checkRun } from '../server/test/support/factories.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { shootAll } from './support/screens.js';

const INTERVAL_S = 10;

/**
 * Issue 16 item 4 in the browser (ADR 73): monitors whose locations fell silent are UNKNOWN,
 * and admins see one notice above every screen naming how many and which locations; it goes
 * when a location reports again.
 */
describe('the coverage notice', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  const errors: string[] = [];
  // The server's clock: moved a minute on to let the locations' results go stale.
  let ahead = 0;
  const clock = { now: () => Date.now() + ahead };

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist, clock });
    for (const [id, name] of [
      ['eu-west', 'EU West'],
      ['us-east', 'US East'],
      ['ap-south', 'Asia Pacific (Mumbai)'],
    ] as const) {
      await app.database.db
        .insertInto('locations')
        .values({ id, name, region: null, created_at: Date.now() })
        .execute();
    }
    browser = await launchBrowser();
    const context = await browser.newContext();
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** A monitor checked from `locations`, each of which reports the round running (up). */
  async function silentMonitor(name: string, locations: string[]) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'http', name, url: 'http://127.0.0.1:9/', interval: INTERVAL_S, timeout: 3 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    await app.database.db
      .insertInto('monitor_locations')
      .values(locations.map((location_id) => ({ monitor_id: id, location_id })))
      .execute();
    const i = INTERVAL_S * 1000;
    const then = clock.now();
    const item = {
      monitorId: id,
      roundAt: new Date(dueOf(id, i, roundAt(id, i, then))).toISOString(),
      startedAt: new Date(then).toISOString(),
      result: checkRun(),
    };
    for (const l of locations) await app.locations.record(l, [item], { replayed: false });
    return id;
  }

  it('names the silent locations once for all monitors, and clears when one reports', async () => {
    const ids = [
      await silentMonitor('Checkout API', ['eu-west', 'us-east']),
      await silentMonitor('Search', ['eu-west']),
      await silentMonitor('Images CDN', ['ap-south', 'us-east']),
    ];
    ahead = 60_000;
    const deps = { repos: repositories(app.database), clock, hub: app.hub };
    expect(await sweepCoverage({ ...deps, maintenance: null })).toBe(3);

    await page.goto(`${app.url}/`);
    const banner = page.locator('.coverage-banner');
    await expect.poll(() => banner.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => banner.innerText()).toContain('Coverage lost: 3 monitors are unknown');
    const text = await banner.innerText();
    expect(text).toContain('EU West — 2 monitors');
    expect(text).toContain('US East — 2 monitors');
    expect(text).toContain('Asia Pacific (Mumbai) — 1 monitor');
    await shootAll(page, 'coverage-banner', { part: banner, fromTop: true });

    // "Show them" filters the dashboard to the unknown monitors.
    await banner.getByRole('link', { name: 'Show them' }).click();
    await page.waitForURL(/status=unknown/);

    // A location reports again for each monitor: the notice goes.
    for (const id of ids) {
      const i = INTERVAL_S * 1000;
      const now = clock.now();
      const l = id === ids[2] ? 'us-east' : 'eu-west';
      const item = {
        monitorId: id,
        roundAt: new Date(dueOf(id, i, roundAt(id, i, now))).toISOString(),
        startedAt: new Date(now).toISOString(),
        result: checkRun(),
      };
      await app.locations.record(l, [item], { replayed: false });
    }
    await page.reload();
    await expect.poll(() => page.locator('.notice').count()).toBe(0);
    const notice = (await app.inject('/api/v1/locations/coverage')).json<{ monitors: number }>();
    expect(notice.monitors).toBe(0);
    expect(errors).toEqual([]);
  }, 120_000);
});
