import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** Issue 17: zone pickers offer current IANA names and find zones by the city typed. */
describe('the time zone picker in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
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

  const options = () => page.getByRole('listbox').getByRole('option').allInnerTexts();
  const first = async () => ((await options())[0] ?? '').split('\n')[0]?.replace(/\s+UTC.*$/, '');

  it('finds Kolkata, Mumbai and Kyiv by name, never the old names, and saves the choice', async () => {
    await page.goto(`${app.url}/settings/general`);
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.click();
    for (const [typed, expected] of [
      ['Kolkata', 'Asia/Kolkata'],
      ['Mumbai', 'Asia/Kolkata · Mumbai'],
      ['calcutta', 'Asia/Kolkata · Calcutta'],
      ['Kyiv', 'Europe/Kyiv'],
      ['Kiev', 'Europe/Kyiv · Kiev'],
    ] as const) {
      await zone.fill(typed);
      await expect.poll(first).toBe(expected);
    }
    await zone.fill('');
    const all = await options();
    expect(all.some((o) => o.startsWith('Asia/Calcutta') || o.startsWith('Europe/Kiev'))).toBe(
      false,
    );
    await zone.fill('Kyiv');
    await expect.poll(first).toBe('Europe/Kyiv');
    await zone.press('Enter');
    expect(await zone.inputValue()).toBe('Europe/Kyiv');
    await page
      .getByRole('form', { name: 'Instance' })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByText('Settings saved').waitFor();
    await page.reload();
    expect(await page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe(
      'Europe/Kyiv',
    );
    const saved = await app.inject({ url: '/api/v1/settings' });
    expect(saved.json()).toMatchObject({ general: { timeZone: 'Europe/Kyiv' } });
  });

  it('finds a city in the maintenance form and says so when nothing matches', async () => {
    await page.goto(`${app.url}/maintenance`);
    await page.getByRole('button', { name: 'New window' }).click();
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.click();
    await zone.fill('Mumbai');
    await expect.poll(first).toBe('Asia/Kolkata · Mumbai');
    await page.getByRole('option').first().click();
    expect(await zone.inputValue()).toBe('Asia/Kolkata');
    await zone.click();
    await zone.fill('Atlantis');
    await page.getByText('No time zone or city matches “Atlantis”').waitFor();
    await zone.fill('Kolk');
    await screenshotAll(page, 'time-zone-picker');
    await zone.press('Escape');
    expect(await zone.inputValue()).toBe('Asia/Kolkata');
    expect(errors).toEqual([]);
  });
});
