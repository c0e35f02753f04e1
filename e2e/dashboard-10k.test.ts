import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const COUNT = 10_000;
const name = (i: number) => `Shop ${String(i).padStart(5, '0')}`;

/** The dashboard with 10,000 monitors: a virtualised list fetched page by page from the server. */
describe('the dashboard with 10,000 monitors', () => {
  let browser: Browser;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  /** Rows per answer of GET /api/v1/monitors/rows, and whether the full list was asked for. */
  const pages: number[] = [];
  let fullList = 0;

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
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname === '/api/v1/monitors') fullList += 1;
      if (url.pathname === '/api/v1/monitors/rows' && res.ok()) {
        res.json().then(
          (body: { items: unknown[] }) => pages.push(body.items.length),
          () => pages.push(-1),
        );
      }
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const rows = () => page.getByTestId('monitor-row');

  it('fetches the first page, renders only the rows on screen, and loads more on scrolling', async () => {
    await page.goto(app.url);
    await rows().first().waitFor();
    const table = page.getByTestId('monitor-table');
    // The server's total, though only the first page is in the browser.
    expect(await table.getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
    await expect.poll(() => pages.length).toBeGreaterThanOrEqual(1);
    expect(pages[0]).toBe(100);
    expect(fullList).toBe(0);
    // A screenful plus the overscan, not ten thousand.
    expect(await rows().count()).toBeLessThan(80);
    await page.screenshot({ path: screenshotPath('dashboard-10k-top') });

    // Scrolling to the end of what is loaded, as a person would, brings the next pages.
    for (let i = 0; i < 3; i += 1) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect
        .poll(async () => Number(await rows().last().getAttribute('data-index')), {
          timeout: 10_000,
        })
        .toBeGreaterThan(100 + 200 * i - 1);
    }
    expect(pages.slice(1).every((n) => n === 200)).toBe(true);
    expect(Math.max(...pages)).toBeLessThanOrEqual(200);
    expect(await rows().count()).toBeLessThan(80);
    await page.screenshot({ path: screenshotPath('dashboard-10k-bottom') });

    // And back to the middle: the rows there are the ones at that position.
    const middle = await page.evaluate(() => document.documentElement.scrollHeight / 2);
    await page.evaluate((y) => window.scrollTo(0, y), middle);
    await expect
      .poll(async () => Number(await rows().first().getAttribute('data-index')))
      .toBeGreaterThan(pages.reduce((a, n) => a + n, 0) / 3);
    expect(errors).toEqual([]);
  });

  it('filters the 10,000 by text and by status', async () => {
    await page.goto(app.url);
    await rows().first().waitFor();
    const before = pages.length;
    await page.getByRole('searchbox').fill(name(9_876));
    await expect.poll(() => rows().count()).toBe(1);
    // The server narrowed it: the answer held the one row.
    await expect.poll(() => pages.slice(before)).toContain(1);
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

  it('shows a live flip in the row on screen and in the chip counts', async () => {
    await page.goto(app.url);
    await rows().first().waitFor();
    const first = rows().first();
    const id = Number(await first.getAttribute('data-monitor-id'));
    expect(await first.getAttribute('data-status')).toBe('pending');
    await expect.poll(() => page.getByTestId('status-chip-down').textContent()).toContain('0');
    await expect.poll(() => app.hub.subscriberCount).toBeGreaterThan(0);
    app.hub.publish({
      kind: 'status',
      monitorId: id,
      from: 'pending',
      to: 'down',
      at: new Date().toISOString(),
      errorCode: 'connect_refused',
      message: null,
    });
    const row = page.locator(`[data-testid="monitor-row"][data-monitor-id="${id}"]`);
    await expect.poll(() => row.getAttribute('data-status')).toBe('down');
    await expect.poll(() => page.getByTestId('status-chip-down').textContent()).toContain('1');
    expect(await page.title()).toMatch(/^\(1 down\)/);
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
    await phone.emulateMedia({ colorScheme: 'dark' });
    await phone.screenshot({ path: screenshotPath('dashboard-10k-phone-dark') });
    await phone.close();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(app.url);
    await rows().first().waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-10k-dark') });
  });
});
