import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetServer, type TargetServer } from '../server/test/fixtures/target-server.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, watchErrors } from './support/auth-ui.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const SECRET = 'hdr-e2e-secret-value-77';

/** The headers editor at desktop and phone size, light and dark. */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const size of [
    { label: 'desktop', width: 1280, height: 800 },
    { label: 'phone', width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Scrolled near the top, clear of the sticky top bar and the sticky save bar below.
      const box = await page.locator('fieldset[data-field="headers"]').evaluate((el) => {
        window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120);
        const r = el.getBoundingClientRect();
        return { x: 0, y: r.top - 16, width: window.innerWidth, height: r.height + 32 };
      });
      await page.screenshot({
        path: screenshotPath(`${name}-${size.label}-${scheme}`),
        clip: box,
        animations: 'disabled',
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 860 });
}

/**
 * A monitor with a secret request header, made in the form and checked against a real loopback
 * server: the check sends the value, while neither the edit form nor the API ever shows it.
 */
describe('an HTTP monitor with a secret request header', () => {
  let browser: Browser;
  let app: TestApp;
  let target: TargetServer;

  beforeAll(async () => {
    target = await startTargetServer();
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await target?.close();
  });

  const sent = () => target.requests.filter((r) => r.headers['x-api-key'] === SECRET).length;

  it('sends the value on every check but never shows it again', async () => {
    const { context, page } = await newPage(browser);
    const errors = watchErrors(page);
    await signIn(context, app.url, app.owner.email, app.owner.password);
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Keyed API');
    await page.getByLabel('URL', { exact: true }).fill(`${target.url}/echo`);

    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Api-Key');
    // Secret by default, and typed like a password.
    expect(await page.getByLabel('Header 1 is secret').isChecked()).toBe(true);
    expect(await page.getByLabel('Header 1 value').getAttribute('type')).toBe('password');
    await page.getByLabel('Header 1 value').fill(SECRET);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 2 name').fill('Accept');
    // A harmless name unticks the box by itself; its value stays readable.
    expect(await page.getByLabel('Header 2 is secret').isChecked()).toBe(false);
    expect(await page.getByLabel('Header 2 value').getAttribute('type')).toBe('text');
    await page.getByLabel('Header 2 value').fill('application/json');
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await screenshots(page, 'monitor-headers-new');
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: 'Keyed API' }).waitFor();
    const id = Number(page.url().split('/').pop());
    await expect.poll(sent, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(target.requests.at(-1)?.headers.accept).toBe('application/json');

    // The edit page, loaded afresh: the name and a placeholder, never the value.
    await page.goto(`${app.url}/monitors/${id}/edit`);
    await page.getByRole('heading', { name: 'Edit monitor' }).waitFor();
    const value = page.getByLabel('Header 1 value');
    expect(await page.getByLabel('Header 1 name').inputValue()).toBe('X-Api-Key');
    expect(await value.inputValue()).toBe('');
    expect(await value.getAttribute('placeholder')).toBe('•••• stored — type to replace');
    expect(await page.getByLabel('Header 1 is secret').isChecked()).toBe(true);
    expect(await page.getByLabel('Header 2 value').inputValue()).toBe('application/json');
    expect(await page.content()).not.toContain(SECRET);
    const api = await fetch(`${app.url}/api/v1/monitors/${id}`, { headers: app.owner.headers });
    expect(await api.text()).not.toContain(SECRET);
    await screenshots(page, 'monitor-headers-edit');

    // Unticked, the stored value is not revealed: the header asks for a value of its own.
    await page.getByLabel('Header 1 is secret').uncheck();
    expect(await value.getAttribute('placeholder')).toBe('Value');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Enter the value').first().waitFor();
    expect(await value.getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Header 1 is secret').check();

    // Saved untouched, the stored value is kept: the save's own check sends it again.
    const before = sent();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    await expect.poll(sent, { timeout: 15_000 }).toBeGreaterThan(before);
    expect(await page.content()).not.toContain(SECRET);
    expect(errors).toEqual([]);
    await context.close();
  });
});
