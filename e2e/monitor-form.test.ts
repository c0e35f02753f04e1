import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

describe('the monitor form in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function open(width: number, height: number, colorScheme: 'light' | 'dark' = 'light') {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    await page.goto(`${app.url}/monitors/new`);
  }

  it('explains each invalid field next to it, from the shared schema, and creates nothing', async () => {
    await open(1280, 900);
    await page.getByLabel('Name', { exact: true }).fill('x');
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByLabel('URL', { exact: true }).fill('ftp://example.com');
    await page.getByLabel('Interval (seconds)').fill('5');
    await page.getByRole('button', { name: 'Create monitor' }).click();

    const url = page.getByLabel('URL', { exact: true });
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await url.getAttribute('aria-describedby')) ?? '';
    const message = await page
      .locator(`[id="${describedBy.split(' ').find((id) => id.includes('error')) ?? describedBy}"]`)
      .first()
      .textContent();
    expect(message).toMatch(/http/i);
    expect(await page.getByLabel('Interval (seconds)').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Give the monitor a name').count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('form-errors'), fullPage: true });

    const list = await (
      await fetch(`${app.url}/api/v1/monitors`, { headers: app.owner.headers })
    ).json();
    expect(list.items).toEqual([]);
    await page.close();
  });

  it('renders escaped text, never markup, for what users typed', async () => {
    const res = await fetch(`${app.url}/api/v1/monitors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...app.owner.headers },
      body: JSON.stringify({
        type: 'http',
        name: '<img src=x onerror="window.__xss=1">',
        url: 'http://127.0.0.1:9/',
        paused: true,
        tags: ['<b>bold</b>'],
      }),
    });
    expect(res.status).toBe(201);
    await open(375, 812, 'dark');
    await page.goto(app.url);
    await page.getByTestId('monitor-row').first().waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
    ).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.getByText('<img src=x onerror="window.__xss=1">').count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('dashboard-phone-dark'), fullPage: true });
    await page.close();
  });
});
