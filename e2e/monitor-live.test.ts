import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { startTargetServer, type TargetServer } from '../server/test/fixtures/target-server.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/** The acceptance path in real Chromium: form → live dashboard → target stops → down, no reload. */
describe('a monitor from form to live dashboard', () => {
  let browser: Browser;
  let app: TestApp;
  let target: TargetServer;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    target = await startTargetServer();
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await target?.close();
  });

  it('creates a monitor in the form, sees it up, then sees it go down live when its target stops', async () => {
    await page.goto(app.url);
    // Set once on the loaded document: it survives only if nothing reloads the page.
    await page.evaluate(
      () => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true),
    );

    await page
      .getByRole('link', { name: /new monitor/i })
      .first()
      .click();
    await page.getByLabel('Name', { exact: true }).fill('Checkout page');
    await page.getByLabel('URL', { exact: true }).fill(`${target.url}/ok`);
    await page.getByLabel('Interval (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('2');
    await page.getByLabel('Retries before down').fill('0');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: 'Checkout page' }).waitFor();
    await expect.poll(() => page.getByText('Connection refused').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('monitor-page'), fullPage: true });

    await page
      .getByRole('link', { name: /dashboard/i })
      .first()
      .click();
    const row = page.getByTestId('monitor-row').filter({ hasText: 'Checkout page' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('up');
    await page.screenshot({ path: screenshotPath('dashboard-up'), fullPage: true });

    await target.close();
    // The scheduler's next check (interval 10 s) finds the port closed; SSE carries it here.
    await expect
      .poll(() => row.getAttribute('data-status'), { timeout: 25_000, interval: 250 })
      .toBe('down');
    await expect.poll(() => row.textContent()).toMatch(/down/i);
    // Up, then down: the 24 h uptime follows the flip without a reload (50 % after one check
    // of each, 66.67 % when a loaded machine fitted in a second up check before the stop).
    const uptime = async () => {
      const m = /(\d+(?:\.\d+)?)\s?%/.exec((await row.textContent()) ?? '');
      return m ? Number(m[1]) : null;
    };
    await expect.poll(uptime, { timeout: 5000 }).toBeLessThan(100);
    expect(await uptime()).toBeGreaterThanOrEqual(50);
    await page.screenshot({ path: screenshotPath('dashboard-down'), fullPage: true });

    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
    expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
  });
});
