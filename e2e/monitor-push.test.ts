import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/** A push monitor made in the form; the test plays the cron job, pinging the URL the page shows. */
describe('a push monitor from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let monitorPath = '';
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('creates it without a target, shows its URL, and follows the pings live', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: 'Push' })
      .click();
    await page.getByTestId('push-note').waitFor();
    expect(await page.getByLabel('URL', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Timeout (seconds)').count()).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('Nightly backup');
    const grace = page.getByLabel('Grace period (seconds)');
    await grace.fill('-1');
    await grace.blur();
    await page.getByText('The grace period cannot be negative').waitFor();
    await grace.fill('120');
    await page.getByLabel('Expected every', { exact: true }).fill('3600');
    await page.getByLabel('Misses before down').fill('0');
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('monitor-push-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    monitorPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: 'Nightly backup' }).waitFor();
    await page.getByText('Expected every 1 h').first().waitFor();
    const badge = page.locator('.mhead__title [data-status]');
    expect(await badge.getAttribute('data-status')).toBe('pending');
    expect(await page.getByRole('button', { name: 'Check now' }).count()).toBe(0);

    // The job's side: the URL as the page shows it, called with fetch.
    const url = await page.getByRole('textbox', { name: 'Push URL' }).inputValue();
    expect(url).toMatch(new RegExp(`^${app.url}/api/push/[A-Za-z0-9]{32}$`));
    expect(await page.getByText(`${url}/fail`).count()).toBe(1);

    const ok = await fetch(`${url}?msg=${encodeURIComponent('3 files copied')}`);
    expect(await ok.text()).toBe('OK');
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 10_000 }).toBe('up');
    await page.getByText('3 files copied').waitFor();
    await page.screenshot({ path: screenshotPath('monitor-push-up'), fullPage: true });

    const failed = await fetch(`${url}/fail`, { method: 'POST', body: 'rsync: disk full' });
    expect(failed.status).toBe(200);
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 10_000 }).toBe('down');
    await page.getByText('Job reported a failure').first().waitFor();
    await page.getByText('rsync: disk full').first().waitFor();
    await page.screenshot({ path: screenshotPath('monitor-push-down'), fullPage: true });

    // A new URL, after a confirm; the old one is refused from then on.
    await page.getByRole('button', { name: 'New URL' }).click();
    await page.getByRole('button', { name: 'Replace URL' }).click();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Push URL' }).inputValue())
      .not.toBe(url);
    expect((await fetch(url)).status).toBe(404);

    await page.getByRole('link', { name: 'Monitors' }).first().click();
    const row = page.getByTestId('monitor-row').filter({ hasText: 'Nightly backup' });
    await expect.poll(() => row.textContent()).toContain('push');
    await context.close();
  });

  it('shows the page on a phone, in the dark theme', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      colorScheme: 'dark',
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}${monitorPath}`);
    await page.getByRole('textbox', { name: 'Push URL' }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath('monitor-push-phone'), fullPage: true });
    await page.goto(`${app.url}/monitors/new`);
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: 'Push' })
      .click();
    await page.getByLabel('Grace period (seconds)').waitFor();
    await page.screenshot({ path: screenshotPath('monitor-push-form-phone'), fullPage: true });
    await context.close();
  });

  it('shows a viewer the token hint instead of the URL', async () => {
    const viewer = await app.identity('viewer');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, viewer.email, viewer.password);
    const page = await newPage(context);
    await page.goto(`${app.url}${monitorPath}`);
    await page.getByText('Only editors see the push URL').waitFor();
    expect(await page.getByRole('textbox', { name: 'Push URL' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New URL' }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('monitor-push-viewer'), fullPage: true });
    await context.close();
    expect(errors).toEqual([]);
  });
});
