import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { watchErrors } from './support/auth-ui.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const sections = [
  ['Monitors', /\/$/, 'Monitors'],
  ['Incidents', /\/incidents$/, 'Incidents'],
  ['Maintenance', /\/maintenance$/, 'Maintenance'],
  ['Status pages', /\/status-pages$/, 'Status pages'],
  ['Notifications', /\/notifications$/, 'Notifications'],
  ['Settings', /\/settings\/account$/, 'Settings'],
] as const;

/** Issue 17: on a phone every section is one tap away in the menu, none off the screen's edge. */
describe('the app on a phone (390 × 844)', () => {
  let browser: Browser;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const long = 'Customer portal — production — eu-west-1 — gateway health';

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    for (const name of [long, long.replace('eu-west-1', 'us-east-1')]) {
      await app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput({ name }),
      });
    }
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const overflow = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );

  it('reaches every section from the Menu button, each link in sight and large enough to tap', async () => {
    await page.goto(`${app.url}/`);
    await page.getByTestId('monitor-row').first().waitFor();
    // The wide row of sections is not shown; the menu stands for it.
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    for (const [name, url, heading] of sections) {
      const menu = page.getByRole('button', { name: /^Menu/ });
      await menu.tap();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      const link = page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
      const box = await link.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(box!.y + box!.height).toBeLessThanOrEqual(844);
      expect(box!.height).toBeGreaterThanOrEqual(40);
      await link.tap();
      await page.waitForURL(url);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      // Choosing closes the menu and it names where the person is.
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await overflow()).toBeLessThanOrEqual(0);
    }
    await page.getByRole('button', { name: /^Menu/ }).tap();
    await page.screenshot({ path: screenshotPath('phone-menu-open') });
    await page.keyboard.press('Escape');
    expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('shows every status filter, readable selects and long names whole on the dashboard', async () => {
    await page.goto(`${app.url}/`);
    await page.getByTestId('monitor-row').first().waitFor();
    for (const chip of await page.locator('.chips .chip').all()) {
      const box = (await chip.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    for (const select of await page.locator('.toolbar__selects select').all()) {
      expect((await select.boundingBox())!.width).toBeGreaterThanOrEqual(100);
    }
    // The end that tells them apart is on screen, not cut off behind an ellipsis.
    for (const end of ['eu-west-1 — gateway health', 'us-east-1 — gateway health']) {
      const name = page.locator('.mrow__name', { hasText: end });
      const box = (await name.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    }
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath('phone-dashboard'), fullPage: true });
  });
});
