import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestApp, type TestApp } from '../server/test/support/app.js';
import {
  newPage,
  screenshotAll,
  signInWithForm,
  signOutWithMenu,
  watchErrors,
} from './support/auth-ui.js';
import { launchBrowser, webDist } from './support/browser.js';

/**
 * Chromium's virtual authenticator (DevTools protocol `WebAuthn` domain) as the person's
 * platform passkey: user present and verified, resident keys, no prompt.
 */
async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { cdp, authenticatorId, credentials };
}

describe('passkeys in a browser with a virtual authenticator', () => {
  let browser: Browser;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let base: string;
  let authenticator: Awaited<ReturnType<typeof virtualAuthenticator>>;

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    // WebAuthn needs a host name as the relying party (not an IP) and a secure context:
    // http://localhost is one.
    base = app.url.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser));
    errors = watchErrors(page);
    authenticator = await virtualAuthenticator(context, page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('adds a named passkey in My account, with recovery codes the first time', async () => {
    await page.goto(`${base}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await screenshotAll(page, 'passkey-login');
    await signInWithForm(page, OWNER.email, OWNER.password);
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/settings/account`);
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByLabel('Name for the new passkey').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Save your recovery codes now').waitFor();
    expect(
      await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count(),
    ).toBe(10);
    await screenshotAll(page, 'passkey-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    const row = page.getByTestId('passkey-row');
    await row.locator('.passkey-row__name', { hasText: 'Test laptop' }).waitFor();
    await row.getByText(/never used/).waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);
    expect((await authenticator.credentials())[0]!.isResidentCredential).toBe(true);
    await screenshotAll(page, 'passkey-account');
  });

  it('signs out, then signs in with the passkey alone', async () => {
    await signOutWithMenu(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/settings/account`);
    await page
      .getByTestId('passkey-row')
      .getByText(/last used/)
      .waitFor();
  });

  it('is offered as the second factor after the password', async () => {
    await signOutWithMenu(page);
    await signInWithForm(page, OWNER.email, OWNER.password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    // No TOTP app on this account: a recovery code is the other way.
    await page.getByLabel('Recovery code').waitFor();
    await screenshotAll(page, 'passkey-second-factor');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(`${base}/`);
  });

  it('renames and removes it; the password alone signs in again', async () => {
    await page.goto(`${base}/settings/account`);
    const row = page.getByTestId('passkey-row');
    await row.getByRole('button', { name: /Rename/ }).click();
    await page.getByLabel('New name for Test laptop').fill('Old laptop');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await row.locator('.passkey-row__name', { hasText: 'Old laptop' }).waitFor();
    await row.getByRole('button', { name: /Remove/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove passkey' }).click();
    await page.getByText('No passkeys yet.').waitFor();
    await signOutWithMenu(page);
    await signInWithForm(page, OWNER.email, OWNER.password);
    await page.waitForURL(`${base}/`);
  });

  it('with the policy on, a person without a second factor is sent to enrol first', async () => {
    await page.goto(`${base}/settings/security`);
    await page.getByLabel('Require a second factor for every account').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').waitFor();
    await screenshotAll(page, 'settings-security');

    const person = await app.identity('editor');
    const other = await newPage(browser);
    const otherErrors = watchErrors(other.page);
    await virtualAuthenticator(other.context, other.page);
    await other.page.goto(`${base}/monitors/new`);
    await signInWithForm(other.page, person.email, person.password);
    await other.page.waitForURL(/\/enrol\?next=/);
    await other.page.getByRole('heading', { name: 'Set up a second factor' }).waitFor();
    await screenshotAll(other.page, 'passkey-enrol-required');
    await other.page.getByRole('button', { name: 'Add a passkey' }).click();
    await other.page.getByRole('button', { name: 'I have saved them' }).click();
    await other.page.getByRole('link', { name: 'Continue to Pagewatch' }).click();
    await other.page.waitForURL(`${base}/monitors/new`);
    expect(otherErrors).toEqual([]);
    await other.context.close();

    await app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      payload: { security: { requireSecondFactor: false } },
    });
    expect(errors).toEqual([]);
  });
});
