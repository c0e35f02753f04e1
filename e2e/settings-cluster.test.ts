import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** Settings → Cluster in real Chromium: the process serving the page, holding every lease. */
describe('the cluster screen in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    // With the scheduler the process joins at start and, alone, takes all 1,024 partitions.
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist, scheduler: true });
    browser = await launchBrowser();
    let context;
    ({ context, page } = await newPage(browser));
    await signIn(context, app.url, app.owner.email, app.owner.password);
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('opens from the settings menu and shows this process with every partition', async () => {
    await page.goto(`${app.url}/settings/account`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Cluster' })
      .click();
    await page.waitForURL(/\/settings\/cluster$/);
    await page.getByRole('heading', { name: 'Cluster' }).waitFor();
    expect(await page.title()).toMatch(/^Cluster · Settings/);

    const row = page.getByTestId('cluster-member');
    const partitions = row.locator('td[data-label="Partitions"]');
    // The first renewals may take the partitions in batches; the screen asks every 5 s.
    await expect.poll(() => partitions.innerText(), { timeout: 20_000 }).toMatch(/^1,024\s*100%$/);
    expect(await row.count()).toBe(1);
    const header = row.getByRole('rowheader');
    expect(await header.textContent()).toContain(`:${process.pid}`);
    await header.getByText('this process').waitFor();
    for (const name of ['housekeeping', 'retention']) await row.getByText(name).first().waitFor();
    await row.getByText(/^\d+\.\ds ago$/).waitFor();
    await page.getByTestId('cluster-partitions').getByText('All owned').waitFor();
    expect(await page.getByText(/Mixed versions/).count()).toBe(0);
    await screenshotAll(page, 'settings-cluster');
    expect(errors).toEqual([]);
  });

  it('fits a phone without scrolling sideways, as one card per process', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.url}/settings/cluster`);
    await page.getByTestId('cluster-member').getByText('this process').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // Cards label their figures: the column headings are hidden on phones.
    expect(await page.locator('.ctable thead').isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('is not offered to a viewer, and explains why when opened directly', async () => {
    const viewer = await app.identity('viewer');
    const { context, page: theirs } = await newPage(browser);
    await signIn(context, app.url, viewer.email, viewer.password);
    await theirs.goto(`${app.url}/settings/cluster`);
    await theirs.getByRole('heading', { name: 'You need the admin role' }).waitFor();
    const nav = theirs.getByRole('navigation', { name: 'Settings' });
    await nav.getByRole('link', { name: 'Account' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Cluster' }).count()).toBe(0);
    await context.close();
  });
});
