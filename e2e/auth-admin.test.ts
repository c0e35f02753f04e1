import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

interface UserJson {
  email: string;
  role: string;
  disabled: boolean;
}

/** The owner's settings screens in real Chromium: people, API keys and the audit log. */
describe('managing people and API keys in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];

  const users = async (): Promise<UserJson[]> =>
    (
      (await (await fetch(`${app.url}/api/v1/users`, { headers: app.owner.headers })).json()) as {
        items: UserJson[];
      }
    ).items;

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

  it('creates an editor, makes them a viewer, then disables them', async () => {
    await page.goto(`${app.url}/settings/users`);
    const mine = page.getByTestId('user-row').filter({ hasText: app.owner.email });
    await mine.getByText(/this is you/i).waitFor();

    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByLabel('Name').fill('Eddie Editor');
    await page.getByLabel('Email').fill('eddie@example.com');
    await page.getByLabel('Role').selectOption('editor');
    await page.getByLabel('First password').fill('short');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('Use at least 10 characters').waitFor();
    await page.getByLabel('First password').fill('tangerine bicycle 7');
    await screenshotAll(page, 'users-create');
    await page.getByRole('button', { name: 'Add user' }).click();

    const row = page.getByTestId('user-row').filter({ hasText: 'eddie@example.com' });
    await row.waitFor();
    await page.getByText('Added Eddie Editor as an editor').first().waitFor();
    expect(await row.getByLabel('Role of Eddie Editor').inputValue()).toBe('editor');

    await row.getByLabel('Role of Eddie Editor').selectOption('viewer');
    const dialog = page.getByRole('dialog', { name: 'Make Eddie Editor a viewer?' });
    await dialog.waitFor();
    await screenshotAll(page, 'users-role-dialog');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await page.getByText('Eddie Editor is now a viewer').first().waitFor();
    await expect
      .poll(async () => (await users()).find((u) => u.email === 'eddie@example.com')?.role)
      .toBe('viewer');

    await row.getByRole('button', { name: 'Disable' }).click();
    await page
      .getByRole('dialog', { name: 'Disable Eddie Editor?' })
      .getByRole('button', { name: 'Disable account' })
      .click();
    await row.getByText('Disabled', { exact: true }).waitFor();
    expect((await users()).find((u) => u.email === 'eddie@example.com')).toMatchObject({
      role: 'viewer',
      disabled: true,
    });
    await row.getByRole('button', { name: 'Enable' }).waitFor();
    await screenshotAll(page, 'users');

    await row.getByRole('button', { name: 'Reset password' }).click();
    const reset = page.getByRole('dialog', { name: 'New password for Eddie Editor' });
    await reset.getByLabel('New password').fill('1234567890');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await reset.getByText('This password is too common; choose another').waitFor();
    await screenshotAll(page, 'users-reset-password');
    await reset.getByLabel('New password').fill('walnut harbour lantern');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('New password set for Eddie Editor').first().waitFor();
    await reset.waitFor({ state: 'hidden' });
  });

  it('creates an API key, shows it once, and revokes it', async () => {
    await page.goto(`${app.url}/settings/api-keys`);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name').fill('Deploy pipeline');
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByLabel('Expires').selectOption('30');
    await page.getByRole('button', { name: 'Create key' }).click();

    const secretInput = page.getByLabel('New API key');
    await secretInput.waitFor();
    const secret = await secretInput.inputValue();
    expect(secret).toMatch(/^pw_[0-9A-Za-z]{32,}$/);
    await page.getByText(/only time Pagewatch shows it/).waitFor();
    await screenshotAll(page, 'api-keys-created');
    const asKey = () =>
      fetch(`${app.url}/api/v1/monitors`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await asKey()).status).toBe(200);

    await page.getByRole('button', { name: 'I have copied it' }).click();
    await secretInput.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Deploy pipeline' });
    await row.getByText(`${secret.slice(0, 10)}…`).waitFor();
    await screenshotAll(page, 'api-keys');

    await row.getByRole('button', { name: /revoke/i }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Deploy pipeline”?' });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await asKey()).status).toBe(401);
  });

  it('lists what happened in the audit log, filtered by action', async () => {
    await page.goto(`${app.url}/settings/audit`);
    await page.getByTestId('audit-row').first().waitFor();
    const all = await page.getByTestId('audit-row').count();
    expect(all).toBeGreaterThanOrEqual(5);
    await screenshotAll(page, 'audit');
    await page.getByLabel('Action').selectOption('api_key.revoked');
    await page.waitForURL(/action=api_key.revoked/);
    await expect.poll(() => page.getByTestId('audit-row').count()).toBe(1);
    await page
      .getByTestId('audit-row')
      .getByText(/Revoked API key "Deploy pipeline"/)
      .waitFor();
  });

  it('signs out everywhere: another browser is led to sign in at once', async () => {
    const other = await newPage(browser);
    await signIn(other.context, app.url, app.owner.email, app.owner.password);
    await other.page.goto(`${app.url}/settings/api-keys`);
    await other.page.getByRole('heading', { name: 'API keys' }).first().waitFor();

    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: /account menu/i }).click();
    await page.getByRole('button', { name: /sign out everywhere/i }).click();
    await page.waitForURL(/\/login$/);

    // Its event stream ends with the session, so it asks who is signed in without a click and
    // leads to sign-in, remembering where the person was.
    await other.page.waitForURL(/\/login\?next=%2Fsettings%2Fapi-keys$/);
    await other.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await other.page.getByText(/Your session ended/).waitFor();
    await screenshotAll(other.page, 'login-session-ended');
    await other.context.close();
    expect(errors).toEqual([]);
  });
});
