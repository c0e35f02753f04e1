import { PublicStatusPage } from '@pagewatch/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import type { ResultWrite } from '../server/src/db/repositories/results.js';
import { dueOf, roundAt } from '../server/src/domain/schedule.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { checkRun, downRun, monitorInput } from '../server/test/support/factories.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { desktop, phone, shootAll } from './support/screens.js';

const DAY = 86_400_000;
const INTERVAL_S = 10;
const SCRIPT_NAME = 'Lab <script>window.pwned=1</script>';

/**
 * Issue 20 item 6 and issue 16 item 6 in the browser (ADR 66): the editor turns on monthly
 * uptime and a component's locations; the public page shows 12 months with the one
 * computation's figures, each location's status, and REGIONAL naming the failing location —
 * whose name, the team's text, arrives as text, never as markup.
 */
describe('status page months and locations', () => {
  let browser: Browser;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  let feeding: NodeJS.Timeout | null = null;
  let pageId: number;
  let checkout: number;
  const errors: string[] = [];

  async function monitor(name: string): Promise<number> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name, interval: INTERVAL_S, timeout: 3 }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }

  /** Five months of checks, six a day; the 40th day back has an outage of two of them. */
  function history(id: number): ResultWrite[] {
    const writes: ResultWrite[] = [];
    const today = Math.floor(Date.now() / DAY) * DAY;
    let prev: 'up' | 'down' = 'up';
    for (let d = 150; d >= 1; d--) {
      for (let h = 0; h < 6; h++) {
        const down = d === 40 && h < 2;
        const status = down ? 'down' : 'up';
        writes.push({
          monitorId: id,
          at: today - d * DAY + h * 3_600_000 + 1000,
          run: down ? downRun() : checkRun({ latencyMs: 80 }),
          status,
          failures: down ? 1 : 0,
          recent: [],
          flip: status === prev ? null : { from: prev, to: status },
        });
        prev = status;
      }
    }
    return writes;
  }

  /** Every second: Lab fails this round, EU West and US East pass. */
  function feed(monitorId: number) {
    const i = INTERVAL_S * 1000;
    const once = () => {
      const now = Date.now();
      const item = (down: boolean) => ({
        monitorId,
        roundAt: new Date(dueOf(monitorId, i, roundAt(monitorId, i, now))).toISOString(),
        startedAt: new Date(now).toISOString(),
        result: down ? downRun() : checkRun({ latencyMs: 80 }),
      });
      void app.locations.record('lab', [item(true)], { replayed: false });
      void app.locations.record('eu-west', [item(false)], { replayed: false });
      void app.locations.record('us-east', [item(false)], { replayed: false });
    };
    once();
    feeding = setInterval(once, 1000);
  }

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    for (const [id, name] of [
      ['eu-west', 'EU West'],
      ['us-east', 'US East'],
      ['lab', SCRIPT_NAME],
    ] as const) {
      await app.database.db
        .insertInto('locations')
        .values({ id, name, region: null, created_at: Date.now() })
        .execute();
    }
    checkout = await monitor('Checkout API');
    const website = await monitor('Website');
    const repos = repositories(app.database);
    await repos.results.writeBatch(history(checkout));
    await repos.results.writeBatch(history(website));
    const set = await app.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${checkout}/locations`,
      payload: { locations: ['eu-west', 'us-east', 'lab'], quorum: 2 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      payload: {
        slug: 'acme',
        title: 'Acme',
        published: true,
        timeZone: 'UTC',
        sections: [
          { title: 'Core', components: [{ monitorId: checkout }, { monitorId: website }] },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    pageId = created.json<{ id: number }>().id;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  }, 300_000);
  afterAll(async () => {
    if (feeding) clearInterval(feeding);
    await browser?.close();
    await app?.stop();
  });

  /** Desktop and phone, light and dark: every screen is looked at in all four. */
  const shoot = (name: string) =>
    shootAll(page, `status-history-${name}`, {
      check: async (size, scheme) => {
        if (size !== 'phone') return;
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${name} ${scheme}`).toBeLessThanOrEqual(phone.width);
      },
    });

  it('turns both options on in the editor', async () => {
    await page.goto(`${app.url}/status-pages/${pageId}/edit`);
    await page.getByRole('heading', { name: 'Edit “Acme”' }).waitFor();
    await page.getByLabel('Uptime per month, last 12 months').check();
    await page.getByLabel('Show each location’s status').first().check();
    await shoot('editor');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.notice__title', { hasText: 'Saved.' }).waitFor();
    const stored = (await app.inject(`/api/v1/status-pages/${pageId}`)).json<{
      show: { monthlyUptime: boolean };
      sections: { components: { showLocations: boolean }[] }[];
    }>();
    expect(stored.show.monthlyUptime).toBe(true);
    expect(stored.sections[0]!.components.map((c) => c.showLocations)).toEqual([true, false]);
  });

  it('shows months, locations and REGIONAL naming the failing location as text', async () => {
    feed(checkout);
    await expect
      .poll(
        async () =>
          (await app.inject(`/api/v1/monitors/${checkout}`)).json<{ status: string }>().status,
        { timeout: 30_000 },
      )
      .toBe('regional');
    await page.goto(`${app.url}/status/acme`);
    const comp = page.locator('li.comp').first();
    // The page's cache refreshes on results (at most every 30 s) and on the flip.
    await expect
      .poll(
        async () => {
          await page.reload();
          return comp.locator('.st').textContent();
        },
        { timeout: 70_000, interval: 2000 },
      )
      .toBe(`Degraded in ${SCRIPT_NAME}`);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    const locs = await comp.locator('.locs li').allTextContents();
    expect(locs).toEqual(['EU WestOperational', `${SCRIPT_NAME}Failing`, 'US EastOperational']);
    expect(await comp.locator('.locs').getAttribute('aria-label')).toBe(
      'Status of Checkout API by location',
    );
    // Amber, like degraded.
    const [colour, amber] = await comp.locator('.st').evaluate((el) => {
      const probe = document.createElement('span');
      probe.className = 'st s-degraded';
      document.body.append(probe);
      const degraded = getComputedStyle(probe).color;
      probe.remove();
      return [getComputedStyle(el).color, degraded];
    });
    expect(colour).toBe(amber);
    const website = page.locator('li.comp').nth(1);
    expect(await website.locator('.locs').count()).toBe(0);

    const months = comp.locator('ol.months > li');
    expect(await months.count()).toBe(12);
    const view = PublicStatusPage.parse((await app.inject('/status/acme/index.json')).json());
    const figures = view.sections[0]!.components[0]!.months!;
    const texts = await months.allTextContents();
    for (const [i, m] of figures.entries()) {
      const long = new Intl.DateTimeFormat('en-GB', {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${m.month}-01T00:00:00Z`));
      expect(texts[i]).toContain(`${long}: `);
      if (m.uptime === null) expect(texts[i]).toContain('no data');
    }
    expect(figures.filter((m) => m.uptime !== null).length).toBeGreaterThanOrEqual(5);
    expect(figures.some((m) => m.state === 'down' || m.state === 'degraded')).toBe(true);
    await shoot('page');
    expect(errors).toEqual([]);
  });
});
