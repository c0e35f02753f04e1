import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { startTargetServer, type TargetServer } from '../server/test/fixtures/target-server.js';
import { post } from '../server/test/support/http.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/** A group monitor made in the form from two real HTTP members (issue 18 item 8, ADR 47). */
describe('a group monitor from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let target: TargetServer;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  beforeAll(async () => {
    target = await startTargetServer();
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    for (const name of ['Checkout web', 'Checkout API']) {
      const res = await post(app, '/api/v1/monitors', {
        type: 'http',
        name,
        url: `${target.url}/ok`,
        interval: 3600,
        timeout: 5,
      });
      expect(res.status).toBe(201);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await target?.close();
  });

  async function openGroupForm(page: Page) {
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: 'Group' })
      .click();
    await page.getByLabel('Name', { exact: true }).fill('Checkout');
    // The member picker comes first; the Dependencies section further down has one too.
    const members = page.locator('.mw-picker').first();
    await members.getByRole('checkbox', { name: /Checkout web/ }).check();
    await members.getByRole('checkbox', { name: /Checkout API/ }).check();
    await page.getByLabel('Status rule').selectOption('percent_up');
    await page.getByLabel('Least share up (%)').fill('50');
  }

  it('picks two members, saves, and sees the group up on the dashboard', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await openGroupForm(page);
    await page.locator('.mw-picker').first().getByText('2 chosen').waitFor();
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByText('Up while at least 50 % of members are up').waitFor();
    await page.getByRole('link', { name: 'Checkout API' }).waitFor();
    await page.screenshot({ path: screenshotPath('monitor-group-page'), fullPage: true });
    // Editing it, neither its members nor its parents offer the group itself.
    const groupId = /\/monitors\/(\d+)$/.exec(page.url())![1];
    await page.goto(`${app.url}/monitors/${groupId}/edit`);
    const pickers = page.locator('.mw-picker');
    await pickers
      .first()
      .getByRole('checkbox', { name: /Checkout API/ })
      .waitFor();
    for (const picker of [pickers.first(), pickers.last()]) {
      const self = picker.getByRole('checkbox', { name: /^Checkout 2 members/ });
      expect(await self.count()).toBe(0);
    }
    await page.goto(`${app.url}/`);
    const row = page.getByTestId('monitor-row').filter({ hasText: '2 members' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('up');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('fits the form on a phone and a desktop, light and dark', async () => {
    for (const [label, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      const context = await browser.newContext({
        viewport,
        ...(label === 'phone' ? { isMobile: true, hasTouch: true } : {}),
      });
      await signIn(context, app.url, app.owner.email, app.owner.password);
      const page = await newPage(context);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await openGroupForm(page);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, label).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: screenshotPath(`monitor-group-form-${label}-${scheme}`),
          fullPage: true,
        });
      }
      await context.close();
    }
    expect(errors).toEqual([]);
  });
});
