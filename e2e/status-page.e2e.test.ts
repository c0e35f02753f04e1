import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import type { ResultWrite } from '../server/src/db/repositories/results.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { checkRun, downRun, monitorInput } from '../server/test/support/factories.js';
import { insertStatusPage } from '../server/test/support/status-pages.js';
import { launchBrowser, screenshotPath, webDist } from './support/browser.js';

const require = createRequire(import.meta.url);
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const DAY = 86_400_000;

/** The public status page in real Chromium: complete without JavaScript, enhanced with it. */
describe('public status page', () => {
  let browser: Browser;
  let app: TestApp;
  let url: string;

  async function monitor(name: string): Promise<number> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }

  /** 90 days of history: an hourly check, with the outages `bad` asks for. */
  function history(id: number, bad: (day: number) => number, last: 'up' | 'degraded' | 'down') {
    const writes: ResultWrite[] = [];
    let prev: 'up' | 'down' = 'up';
    const now = Date.now();
    const today = Math.floor(now / DAY) * DAY;
    for (let d = 89; d >= 0; d--) {
      const fails = bad(d);
      for (let h = 0; h < 6; h++) {
        const at = today - d * DAY + h * 60_000 + 1000;
        const down = h < fails;
        const status = down ? 'down' : 'up';
        writes.push({
          monitorId: id,
          at,
          run: down ? downRun() : checkRun({ latencyMs: 80 + h }),
          status,
          failures: down ? 1 : 0,
          recent: [],
          flip: status === prev ? null : { from: prev, to: status },
        });
        prev = status;
      }
    }
    const status = last;
    if (prev === status) prev = 'up';
    writes.push({
      monitorId: id,
      at: now - 1000,
      run:
        last === 'down'
          ? downRun()
          : checkRun({ outcome: last, latencyMs: last === 'degraded' ? 2400 : 95 }),
      status,
      failures: 0,
      recent: [],
      flip: status === prev ? null : { from: prev, to: status },
    });
    return writes;
  }

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    const repos = repositories(app.database);
    const api = await monitor('api-internal');
    const web = await monitor('Website');
    const checkout = await monitor('Checkout');
    const eu = await monitor('EU region');
    const arabic = await monitor('واجهة برمجة التطبيقات');
    // A day of hourly checks with a slow afternoon, for the response time chart.
    const hourly: ResultWrite[] = Array.from({ length: 24 }, (_, i) => ({
      monitorId: web,
      at: Date.now() - (24 - i) * 3_600_000,
      run: checkRun({
        latencyMs: 90 + Math.round(60 * Math.sin(i / 4) ** 2) + (i === 15 ? 240 : 0),
      }),
      status: 'up',
      failures: 0,
      recent: [],
      flip: null,
    }));
    await repos.results.writeBatch([
      ...hourly,
      ...history(api, (d) => (d === 12 ? 2 : 0), 'up'),
      ...history(web, () => 0, 'up'),
      ...history(checkout, (d) => (d % 17 === 3 ? 1 : 0), 'degraded'),
      ...history(eu, (d) => (d < 2 ? 3 : 0), 'down'),
      ...history(arabic, () => 0, 'up'),
    ]);
    await insertStatusPage(app.database, app.hub, {
      slug: 'acme',
      title: 'Acme Cloud',
      description:
        'Live status of **Acme Cloud**. Questions? Write to [support](mailto:help@example.com).',
      footer: '© Acme Cloud Ltd — all times UTC',
      subscriptions: { email: true, webhook: false },
      show: { currentLatency: true, latencyChart: true },
      sections: [
        {
          title: 'Core services',
          components: [
            {
              monitorId: api,
              displayName: 'Public API',
              description: 'REST and GraphQL endpoints',
            },
            { monitorId: web, displayName: '' },
            {
              monitorId: checkout,
              displayName: 'Checkout and payments with a rather long name to wrap',
            },
          ],
        },
        {
          title: 'Regions',
          components: [
            { monitorId: eu, displayName: 'Frankfurt (eu-central)' },
            { monitorId: arabic, displayName: '' },
          ],
        },
      ],
    });
    const declared = await app.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      payload: {
        title: 'Frankfurt region unreachable',
        message: 'We are investigating connection failures in Frankfurt.',
        public: true,
        monitorIds: [eu],
      },
    });
    expect(declared.statusCode, declared.body).toBe(201);
    await app.inject({
      method: 'POST',
      url: `/api/v1/incidents/${declared.json<{ id: number }>().id}/updates`,
      payload: {
        state: 'identified',
        message: 'A network provider has an outage; traffic is being rerouted.',
        public: true,
      },
    });
    url = `${app.url}/status/acme`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function open(
    javaScriptEnabled: boolean,
    viewport = desktop,
  ): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport, javaScriptEnabled });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url);
    return { page, errors };
  }

  it('is complete without JavaScript, on a desktop and a phone, light and dark', async () => {
    for (const [size, viewport] of [
      ['desktop', desktop],
      ['phone', phone],
      ['narrow', { width: 320, height: 700 }],
    ] as const) {
      const { page, errors } = await open(false, viewport);
      await page.getByRole('status').getByText('Partial outage').waitFor();
      await page.getByRole('heading', { name: 'Frankfurt region unreachable' }).waitFor();
      await page.getByText('A network provider has an outage').waitFor();
      await page.getByRole('heading', { name: 'Website' }).waitFor();
      await page.getByRole('link', { name: 'Subscribe to updates' }).waitFor();
      // Nothing sticks out sideways, even at 320 px.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, size).toBeLessThanOrEqual(0);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({
          path: screenshotPath(`status-page-nojs-${size}-${scheme}`),
          fullPage: true,
        });
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('with JavaScript refreshes itself, and loads whole when the stylesheet changed', async () => {
    const context = await browser.newContext({ viewport: desktop });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(url);
    const accent = () =>
      page.evaluate(
        () => /--accent:(#[0-9a-f]{6})/.exec(document.querySelector('style')!.textContent)?.[1],
      );
    expect(await accent()).toBe('#2563eb');
    // The owner picks another accent: the open page takes it up on its next refresh.
    const row = await app.database.db
      .selectFrom('status_pages')
      .select(['id', 'theme'])
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    await app.database.db
      .updateTable('status_pages')
      .set({ theme: JSON.stringify({ ...JSON.parse(row.theme), accent: '#b42318' }) })
      .where('id', '=', row.id)
      .execute();
    app.hub.publish({ kind: 'status-page', change: 'updated', pageId: row.id });
    await page.clock.runFor(65_000);
    await page.waitForFunction(() =>
      document.querySelector('style')!.textContent.includes('#b42318'),
    );
    await page.getByRole('group', { name: /Daily uptime of Public API/ }).waitFor();
    await app.database.db
      .updateTable('status_pages')
      .set({ theme: row.theme })
      .where('id', '=', row.id)
      .execute();
    app.hub.publish({ kind: 'status-page', change: 'updated', pageId: row.id });
    await context.close();
  });

  it('shows the history and an incident’s own page without JavaScript', async () => {
    const { page, errors } = await open(false, desktop);
    await page.getByRole('link', { name: 'Incident history' }).click();
    await page.getByRole('heading', { name: 'Uptime, last 90 days' }).waitFor();
    await page.getByRole('group', { name: /Daily uptime of Public API/ }).waitFor();
    await page.screenshot({ path: screenshotPath('status-page-history'), fullPage: true });
    await page.getByRole('link', { name: 'Frankfurt region unreachable' }).click();
    await page.getByText('A network provider has an outage').waitFor();
    await page.screenshot({ path: screenshotPath('status-page-incident'), fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('with JavaScript shows times in the visitor’s zone, breaks no CSP rule and passes axe', async () => {
    const { page, errors } = await open(true);
    // The script rewrote the times in this browser's zone and says so (ADR 36).
    await page.locator('[data-tz]').getByText('your time zone').waitFor();
    expect(await page.locator('.banner time').textContent()).toMatch(
      /^\w{3} \d{1,2} \w{3}(?: \d{4})?, \d\d:\d\d \S+$/,
    );
    // With the script, the arrow keys walk every day, and each says its figures when focused.
    const days = page.getByRole('group', { name: /Daily uptime of Public API/ }).locator('i');
    await days.nth(77).focus();
    await page.keyboard.press('ArrowRight');
    const next = await page.evaluate(() => ({
      index: [...document.activeElement!.parentElement!.children].indexOf(document.activeElement!),
      label: document.activeElement!.getAttribute('aria-label'),
    }));
    expect(next.index).toBe(78);
    expect(next.label).toMatch(/^\d{1,2} \w+: 100% up$/);
    await page.keyboard.press('End');
    expect(await days.nth(89).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Home');
    expect(await days.nth(0).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();

    // axe arrives as an inline script, which the page's CSP refuses: this context bypasses it.
    const context = await browser.newContext({ viewport: desktop, bypassCSP: true });
    const axePage = await context.newPage();
    await axePage.goto(url);
    await axePage.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const violations = await axePage.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>;
          };
        }
      ).axe;
      const result = await axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await axePage.screenshot({ path: screenshotPath('status-page-js-desktop'), fullPage: true });
    await context.close();
  });

  it('shows a day’s figures on keyboard focus for the days worth a look, and on tap for any', async () => {
    const { page } = await open(false, desktop);
    const group = page.getByRole('group', { name: /Daily uptime of Public API/ });
    expect(await group.getAttribute('aria-label')).toBe(
      'Daily uptime of Public API, last 90 days: 1 day down',
    );
    // Tabbing on from the description reaches the one day with an outage in a few steps (the
    // incident links come first): the 89 plain days before it are no tab stops.
    await page.getByRole('link', { name: 'support' }).focus();
    let focused = '';
    let presses = 0;
    while (presses < 10 && !focused.includes('outage')) {
      await page.keyboard.press('Tab');
      presses += 1;
      focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    }
    expect(focused).toMatch(/^\d{1,2} \w+: 66\.67% up, 1 outage$/);
    const bar = group.locator('i').nth(77);
    expect(await bar.getAttribute('aria-label')).toBe(focused);
    expect(await bar.evaluate((el) => el === document.activeElement)).toBe(true);
    const tip = await bar.evaluate((el) => getComputedStyle(el, '::after').content);
    expect(tip).toBe(`"${focused}"`);
    await page
      .locator('.comp')
      .first()
      .screenshot({ path: screenshotPath('status-page-tooltip-focus') });
    await page.context().close();

    // On a phone a tap shows any day's tooltip: its date and state come from the stylesheet.
    const context = await browser.newContext({
      viewport: phone,
      hasTouch: true,
      isMobile: true,
      javaScriptEnabled: false,
    });
    const touch = await context.newPage();
    await touch.goto(url);
    const yesterday = touch
      .getByRole('group', { name: /Daily uptime of Website/ })
      .locator('i')
      .nth(88);
    await yesterday.tap();
    const shown = await yesterday.evaluate((el) => ({
      focused: el === document.activeElement,
      tip: getComputedStyle(el, '::after').content,
      visible: getComputedStyle(el, '::after').display !== 'none',
    }));
    const date = new Date(Date.now() - DAY).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    expect(shown.focused).toBe(true);
    expect(shown.visible).toBe(true);
    expect(shown.tip).toBe(`"${date}: 100% up"`);
    await touch
      .locator('.comp')
      .nth(1)
      .screenshot({ path: screenshotPath('status-page-tooltip-tap') });
    await context.close();
  });
});
