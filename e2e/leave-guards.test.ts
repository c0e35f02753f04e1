import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import {
  acceptLeaving,
  launchBrowser,
  screenshotPath,
  signIn,
  webDist,
} from './support/browser.js';

const desktop = { width: 1280, height: 800 };

/**
 * Issue 17 item 2, the forms the first pass left out: a person's name and email, invitations,
 * new people and API keys, an incident's next update, and the
 * maintenance form's own back button and Cancel, which change the screen without changing the
 * address.
 */
describe('every form asks before its unsaved input is thrown away', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let incidentId: number;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    const declared = await app.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      payload: { title: 'Checkout errors', message: 'Looking into it.' },
    });
    expect(declared.statusCode, declared.body).toBe(201);
    incidentId = declared.json<{ id: number }>().id;
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    acceptLeaving(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const nav = () => page.getByRole('navigation', { name: 'Main' });
  const leave = () => page.getByRole('dialog', { name: 'Leave without saving?' });

  it('asks on the account, people, API key and incident update forms', async () => {
    const forms: { path: string; open?: string; region?: string; label: string; value: string }[] =
      [
        { path: '/settings/account', region: 'Name and email', label: 'Name', value: 'Olive O.' },
        {
          path: '/settings/account',
          region: 'Name and email',
          label: 'New email',
          value: 'olive@example.net',
        },
        { path: '/settings/users', open: 'Invite', label: 'Email', value: 'new@example.com' },
        { path: '/settings/users', open: 'Add user', label: 'Name', value: 'Nina New' },
        { path: '/settings/api-keys', open: 'Create key', label: 'Name', value: 'CI deploys' },
        { path: `/incidents/${incidentId}`, label: 'Update', value: 'Fix deployed, watching.' },
      ];
    for (const f of forms) {
      await page.goto(`${app.url}${f.path}`);
      if (f.open) await page.getByRole('button', { name: f.open, exact: true }).click();
      const within = f.region ? page.getByRole('region', { name: f.region, exact: true }) : page;
      const field = within.getByLabel(f.label, { exact: true });
      await field.fill(f.value);
      await nav().getByRole('link', { name: 'Monitors', exact: true }).click();
      await leave().waitFor();
      await leave().getByRole('button', { name: 'Cancel' }).click();
      await leave().waitFor({ state: 'detached' });
      expect(await field.inputValue(), `${f.path} ${f.label}`).toBe(f.value);
      expect(new URL(page.url()).pathname).toBe(f.path);
      await nav().getByRole('link', { name: 'Monitors', exact: true }).click();
      await leave().getByRole('button', { name: 'Leave and discard' }).click();
      await page.waitForURL(`${app.url}/`);
    }
  });

  it('lets a saved name go without asking', async () => {
    await page.goto(`${app.url}/settings/account`);
    const region = page.getByRole('region', { name: 'Name and email', exact: true });
    await region.getByLabel('Name', { exact: true }).fill('Olive Owner-Smith');
    await region.getByRole('button', { name: 'Save name' }).click();
    await region.getByText('Name saved').waitFor();
    await nav().getByRole('link', { name: 'Monitors', exact: true }).click();
    await page.waitForURL(`${app.url}/`);
  });

  it('asks before the maintenance form’s back button and Cancel discard what was typed', async () => {
    await page.goto(`${app.url}/maintenance`);
    await page.getByRole('button', { name: 'New window' }).click();
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('Database upgrade');
    const back = page.getByRole('button', { name: 'Maintenance', exact: true });
    await back.click();
    await leave().waitFor();
    await page.screenshot({ path: screenshotPath('leave-maintenance-back'), fullPage: true });
    await leave().getByRole('button', { name: 'Cancel' }).click();
    await leave().waitFor({ state: 'detached' });
    expect(await title.inputValue()).toBe('Database upgrade');

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await leave().waitFor();
    await leave().getByRole('button', { name: 'Leave and discard' }).click();
    await page.getByRole('button', { name: 'New window' }).waitFor();
    expect(await title.count()).toBe(0);

    // Untouched, the back button goes straight back.
    await page.getByRole('button', { name: 'New window' }).click();
    await title.waitFor();
    await back.click();
    await page.getByRole('button', { name: 'New window' }).waitFor();
    expect(await leave().count()).toBe(0);
  });

  it('asks before Cancel throws away a half-typed invitation', async () => {
    await page.goto(`${app.url}/settings/users`);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const email = page.getByLabel('Email', { exact: true });
    await email.fill('half@example.com');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await leave().getByRole('button', { name: 'Cancel' }).click();
    expect(await email.inputValue()).toBe('half@example.com');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await leave().getByRole('button', { name: 'Leave and discard' }).click();
    await email.waitFor({ state: 'detached' });
  });

  it('asks on closing the tab, and a test that goes elsewhere accepts the question', async () => {
    await page.goto(`${app.url}/settings/account`);
    const region = page.getByRole('region', { name: 'Name and email', exact: true });
    await region.getByLabel('New email', { exact: true }).fill('typed@example.com');
    // page.goto unloads the page: the form asks, acceptLeaving() says yes.
    const asked = page.waitForEvent('dialog');
    await page.goto(`${app.url}/incidents`);
    expect((await asked).type()).toBe('beforeunload');
    await page.waitForURL(`${app.url}/incidents`);
    expect(errors).toEqual([]);
  });
});
