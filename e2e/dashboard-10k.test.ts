import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const COUNT = 10_000;
const name = (i: number) => `Shop ${String(i).padStart(5, '0')}`;

/** The scale bar for the dashboard: 10,000 monitors in a virtualised list. */
describe('the dashboard with 10,000 monitors', () => {
  let browser: Browser;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    // Stored directly: the API path is tested elsewhere, here only the list's size matters.
    const at = Date.now();
    const repos = repositories(app.database);
    for (let i = 0; i < COUNT; i += 1) {
      await repos.monitors.insert(
        monitorInput({ name: name(i), url: `http://127.0.0.1:9/${i}`, paused: i % 10 === 0 }),
        at,
      );
    }
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const rows = () => page.getByTestId('monitor-row');

  it('renders only the rows on screen, yet scrolls through all of them', async () => {
    await page.goto(app.url);
    await rows().first().waitFor();
    const table = page.getByTestId('monitor-table');
    expect(await table.getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
    // A screenful plus the overscan, not ten thousand.
    expect(await rows().count()).toBeLessThan(80);
    await page.screenshot({ path: screenshotPath('dashboard-10k-top') });

    // To the very end of the list by scrolling the window, as a person would.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(async () => rows().last().getAttribute('data-index'), { timeout: 10_000 })
      .toBe(String(COUNT - 1));
    expect(await rows().count()).toBeLessThan(80);
    await page.screenshot({ path: screenshotPath('dashboard-10k-bottom') });

    // And back to the middle: the rows there are the ones at that position.
    const middle = await page.evaluate(() => document.documentElement.scrollHeight / 2);
    await page.evaluate((y) => window.scrollTo(0, y), middle);
    await expect
      .poll(async () => Number(await rows().first().getAttribute('data-index')))
      .toBeGreaterThan(COUNT / 3);
    expect(errors).toEqual([]);
  });

  it('filters the 10,000 by text and by status', async () => {
    await page.goto(app.url);
    await rows().first().waitFor();
    await page.getByRole('searchbox').fill(name(9_876));
    await expect.poll(() => rows().count()).toBe(1);
    await expect.poll(() => rows().first().textContent()).toContain(name(9_876));
    await page.getByRole('searchbox').fill('');
    await page
      .getByRole('button', { name: /paused/i })
      .first()
      .click();
    await expect.poll(() => rows().first().getAttribute('data-status')).toBe('paused');
    expect(await page.getByTestId('monitor-table').getAttribute('aria-rowcount')).toBe(
      String(COUNT / 10 + 1),
    );
    expect(errors).toEqual([]);
  });

  it('shows cards on a phone and measures their height', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(app.url);
    await phone.getByTestId('monitor-row').first().waitFor();
    expect(await phone.getByTestId('monitor-row').count()).toBeLessThan(60);
    await phone.evaluate(() => window.scrollTo(0, 3000));
    await expect
      .poll(async () =>
        Number(await phone.getByTestId('monitor-row').first().getAttribute('data-index')),
      )
      .toBeGreaterThan(5);
    await phone.screenshot({ path: screenshotPath('dashboard-10k-phone') });
    await phone.close();
  });
});
