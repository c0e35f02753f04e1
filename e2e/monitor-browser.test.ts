import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserSites, type BrowserSites } from '../server/test/fixtures/browser-sites.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/**
 * A browser monitor made in the form against a loopback page whose script 404s: Pagewatch's
 * own Chromium checks it, and the monitor page shows the vitals, waterfall, errors and screenshot.
 */
describe('a browser monitor from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let sites: BrowserSites;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  beforeAll(async () => {
    sites = await startBrowserSites();
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await sites?.close();
  });

  it('creates one, then shows Web Vitals, the waterfall, the console error and the screenshot', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: 'Browser' })
      .click();
    // The type's own schedule defaults: every five minutes, 30 s to load.
    await expect.poll(() => page.getByLabel('Interval (seconds)').inputValue()).toBe('300');
    expect(await page.getByLabel('Timeout (seconds)').inputValue()).toBe('30');

    await page.getByLabel('Name', { exact: true }).fill('Fixture shop');
    const url = page.getByLabel('Page URL', { exact: true });
    await url.fill('file:///etc/passwd');
    await url.blur();
    await page.getByText(/Enter a full http:\/\/ or https:\/\/ URL/).waitFor();
    const interval = page.getByLabel('Interval (seconds)');
    await interval.fill('30');
    await interval.blur();
    await page.getByText('Browser checks run at most every 60 seconds').waitFor();
    await page.getByLabel('Delivered once').selectOption('selector');
    const waitSelector = page.getByLabel('Element to wait for');
    await waitSelector.focus();
    await waitSelector.blur();
    await page.getByText('Enter the CSS selector to wait for, e.g. #app .ready').waitFor();
    await page.screenshot({ path: screenshotPath('monitor-browser-form-errors'), fullPage: true });

    await url.fill(`${sites.url}/script-404`);
    await interval.fill('60');
    await waitSelector.fill('h1');
    await page.getByLabel(/Text the page must show/).fill('Script missing');
    await page.getByLabel(/Degraded when LCP is above/).fill('4000');
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Probe');
    await page.getByLabel('Header 1 value').fill('pagewatch');
    // Secret by default: sent with the page's requests, never shown again.
    expect(await page.getByLabel('Header 1 is secret').isChecked()).toBe(true);
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('monitor-browser-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: 'Fixture shop' }).waitFor();
    const delivery = page.getByRole('region', { name: 'Page delivery' });
    // The failed script degrades the monitor; its name shows in the header's last-check notice.
    await page.getByText('Resource failed').first().waitFor({ timeout: 30_000 });
    await delivery.getByText('Last check', { exact: false }).first().waitFor();
    const vitals = delivery.getByRole('definition');
    await expect.poll(() => vitals.count()).toBe(7);
    await expect.poll(() => delivery.getByText('LCP', { exact: true }).count()).toBeGreaterThan(0);
    // LCP and load carry a measured number, not a dash.
    const figures = await delivery.locator('.figure').allTextContents();
    expect(figures.find((f) => f.startsWith('LCP'))).toMatch(/LCP\d/);
    expect(figures.find((f) => f.startsWith('Load'))).toMatch(/Load\d/);

    const shot = delivery.getByRole('img', { name: /The page as Chromium showed it/ });
    await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);

    const waterfall = page.getByRole('region', { name: 'Slowest resources' });
    await waterfall.getByText('/missing.js').waitFor();
    const failures = page.getByRole('region', { name: 'Failed requests and console errors' });
    await failures.getByRole('cell', { name: '/missing.js' }).waitFor();
    await failures.getByRole('cell', { name: '404' }).waitFor();
    await failures.getByText(/404/).first().waitFor();
    expect(await failures.getByRole('list', { name: 'Console errors' }).textContent()).toMatch(
      /Failed to load resource.*404/,
    );
    await page.getByText('X-Probe').waitFor();
    expect(sites.requests.some((r) => r.headers['x-probe'] === 'pagewatch')).toBe(true);
    await page.screenshot({ path: screenshotPath('monitor-browser-page'), fullPage: true });

    await shot.click();
    const dialog = page.getByRole('dialog', { name: 'Screenshot' });
    await dialog.waitFor();
    await page.screenshot({ path: screenshotPath('monitor-browser-screenshot-dialog') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    const monitorUrl = page.url();
    await context.close();

    // A second check draws the trend chart; then the page at phone width, in the dark theme.
    const id = Number(monitorUrl.split('/').pop());
    await app.inject({ method: 'POST', url: `/api/v1/monitors/${id}/check-now` });
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      colorScheme: 'dark',
    });
    await signIn(phone, app.url, app.owner.email, app.owner.password);
    const small = await newPage(phone);
    await small.goto(monitorUrl);
    await small
      .getByRole('heading', { name: 'Largest Contentful Paint and load over time' })
      .waitFor({ timeout: 30_000 });
    await small.getByRole('img', { name: 'LCP and load time of recent browser checks' }).waitFor();
    const overflow = await small.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await small.screenshot({ path: screenshotPath('monitor-browser-page-phone'), fullPage: true });
    await phone.close();

    // The page's own console stayed clean (the 404 belongs to the checked site, not Pagewatch).
    expect(errors).toEqual([]);
  });
});
