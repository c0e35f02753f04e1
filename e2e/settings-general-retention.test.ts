import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageReport } from '@pagewatch/contract';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** Settings → General and Data retention in real Chromium, as the owner and as an admin. */
describe('the general and data retention screens in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  const settings = async () =>
    (await app.inject({ url: '/api/v1/settings' })).json<{
      general: { instanceName: string };
      retention: Record<string, number | null>;
    }>();

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser));
    await signIn(context, app.url, app.owner.email, app.owner.password);
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('changes the retention, shows errors next to fields, and keeps edits when a save fails', async () => {
    await page.goto(`${app.url}/settings/account`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Data retention' })
      .click();
    await page.waitForURL(/\/settings\/retention$/);
    await page.getByTestId('storage').getByText('Database now').waitFor();
    expect(await page.title()).toMatch(/^Data retention · Settings/);

    const raw = page.getByLabel('Raw check results');
    const hour = page.getByLabel('Hour rollups');
    await raw.fill('0');
    await hour.fill('20');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Keep raw check results at least 1 day').waitFor();
    await page.getByText('Keep hour rollups at least 31 days').waitFor();
    expect((await settings()).retention.rawDays).toBe(30);

    // A save the network swallows leaves what was typed in place.
    await raw.fill('14');
    await hour.fill('400');
    await page.route('**/api/v1/settings', (route) =>
      route.request().method() === 'PUT' ? route.abort() : route.continue(),
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Cannot reach the Pagewatch server').waitFor();
    expect(await raw.inputValue()).toBe('14');
    expect(await hour.inputValue()).toBe('400');
    await page.unroute('**/api/v1/settings');
    // The aborted request is logged by the browser; that one was on purpose.
    errors.splice(0, errors.length);

    await page.getByLabel('Keep day rollups forever').uncheck();
    // Unticking "forever" starts from the hour rollups' keep.
    expect(await page.getByLabel('Day rollups', { exact: true }).inputValue()).toBe('400');
    await page.getByLabel('Day rollups', { exact: true }).fill('500');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Retention saved').waitFor();
    expect((await settings()).retention).toEqual({
      rawDays: 14,
      minuteRollupDays: 90,
      hourRollupDays: 400,
      dayRollupDays: 500,
    });
    await page.reload();
    expect(await page.getByLabel('Raw check results').inputValue()).toBe('14');
    await page.getByTestId('storage').getByText('Projected size').waitFor();
    await screenshotAll(page, 'settings-retention');
    expect(errors).toEqual([]);
  });

  it('deletes all data only after the instance name is typed out', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'http', name: 'Shop', url: 'http://127.0.0.1:9/' },
    });
    expect(created.statusCode).toBe(201);
    await app.identity('admin', 'ada@example.com');
    await page.goto(`${app.url}/settings/general`);
    await page.getByRole('heading', { name: 'Danger zone' }).waitFor();
    await page
      .getByLabel('New owner')
      .getByRole('option', { name: /ada@example\.com/ })
      .waitFor({ state: 'attached' });
    await page.getByText('PAGEWATCH_PUBLIC_URL').waitFor();
    await screenshotAll(page, 'settings-general');

    await page.getByRole('button', { name: 'Delete all data…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete all data?' });
    await dialog.getByLabel('Type Pagewatch to confirm').fill('pagewatch');
    await dialog.getByRole('button', { name: 'Delete all data' }).click();
    await dialog.getByText('That is not the instance name: type Pagewatch').waitFor();
    expect((await app.inject({ url: '/api/v1/monitors' })).json().items).toHaveLength(1);
    await screenshotAll(page, 'settings-delete-all');

    await dialog.getByLabel('Type Pagewatch to confirm').fill('Pagewatch');
    await dialog.getByRole('button', { name: 'Delete all data' }).click();
    await page.getByText('All data deleted').waitFor();
    await page.getByText('1 monitor,').waitFor();
    expect((await app.inject({ url: '/api/v1/monitors' })).json().items).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('warns when the projected growth does not fit on the free disk', async () => {
    const longest = {
      rawDays: 3650,
      minuteRollupDays: 3650,
      hourRollupDays: 3650,
      dayRollupDays: null,
    };
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      payload: { retention: longest },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const storage = async () =>
      (await app.inject({ url: '/api/v1/settings/storage' })).json<StorageReport>();
    const repos = repositories(app.database);
    await repos.monitors.insert(monitorInput({ interval: 10, timeout: 5 }), Date.now());
    const one = await storage();
    // Enough 10 s monitors, ten years of everything, to need more than this disk has free.
    const perMonitor = one.projectedBytes - one.databaseBytes;
    const needed = Math.ceil((one.freeDiskBytes ?? 0) / perMonitor) + 1;
    expect(needed).toBeLessThan(20_000);
    for (let i = 1; i < needed; i += 1)
      await repos.monitors.insert(monitorInput({ interval: 10, timeout: 5 }), Date.now());
    expect((await storage()).exceedsFreeDisk).toBe(true);

    await page.goto(`${app.url}/settings/retention`);
    const warning = page.getByText('The projection does not fit on the disk');
    await warning.waitFor();
    await screenshotAll(page, 'settings-retention-warning');
    expect(errors).toEqual([]);
  });

  it('shows an admin the settings but not the danger zone', async () => {
    const admin = await app.identity('admin');
    const { context: theirs, page: adminPage } = await newPage(browser);
    await signIn(theirs, app.url, admin.email, admin.password);
    await adminPage.goto(`${app.url}/settings/general`);
    await adminPage.getByLabel('Instance name').waitFor();
    expect(await adminPage.getByRole('heading', { name: 'Danger zone' }).count()).toBe(0);
    await theirs.close();
  });
  it('transfers ownership to an admin after the password, and hides the danger zone after', async () => {
    const users = (await app.inject({ url: '/api/v1/users' })).json<{
      items: { id: number; email: string; role: string }[];
    }>().items;
    const ada = users.find((u) => u.email === 'ada@example.com')!;
    await page.goto(`${app.url}/settings/general`);
    await page.getByLabel('New owner').selectOption(String(ada.id));
    await page.getByLabel('Your password').fill('not my password');
    await page.getByRole('button', { name: 'Transfer ownership' }).click();
    await page.getByText('This is not your password').waitFor();

    await page.getByLabel('Your password').fill(app.owner.password);
    await page.getByRole('button', { name: 'Transfer ownership' }).click();
    await page.getByText('Ownership transferred').waitFor();
    await page.getByText(/ada@example\.com\) is the owner now; you are an admin/).waitFor();
    await page.getByRole('heading', { name: 'Danger zone' }).waitFor({ state: 'detached' });
    const after = (await app.inject({ url: '/api/v1/users' })).json<{
      items: { email: string; role: string }[];
    }>().items;
    expect(after.find((u) => u.email === 'ada@example.com')?.role).toBe('owner');
    expect(after.find((u) => u.email === app.owner.email)?.role).toBe('admin');
    expect(errors).toEqual([]);
  });
});
