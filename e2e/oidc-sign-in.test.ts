import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcPeer, type OidcPeer } from '../server/test/fixtures/oidc-provider.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, openUserMenu, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/**
 * Single sign-on in real Chromium (issue 21): the owner adds a provider in Settings → Sign-in,
 * then a person signs in with its button through oidc-provider on loopback.
 */
describe('OIDC sign-in in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let peer: OidcPeer;

  beforeAll(async () => {
    peer = await startOidcPeer();
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    peer.setRedirectUris([`${app.url}/api/v1/auth/oidc/callback`], [`${app.url}/login`]);
    peer.accounts.set('ana', {
      email: 'ana@example.com',
      email_verified: true,
      name: 'Ana Ops',
      groups: ['ops'],
    });
    peer.signInAs = 'ana';
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.close();
  });

  it('the owner adds a provider; a person signs in with its button and gets the mapped role', async () => {
    const { context, page } = await newPage(browser);
    const errors = watchErrors(page);
    await signIn(context, app.url, app.owner.email, app.owner.password);
    await page.goto(`${app.url}/settings/account`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Sign-in' })
      .click();
    await page.waitForURL(/\/settings\/sign-in$/);
    await page.getByText(`${app.url}/api/v1/auth/oidc/callback`).waitFor();
    await page.getByRole('button', { name: 'Add a provider' }).click();
    await page.getByLabel('Button name').fill('Acme ID');
    await page.getByLabel('Issuer URL').fill(peer.issuer);
    await page.getByLabel('Client ID').fill(peer.clientId);
    await page.getByLabel('Client secret').fill(peer.clientSecret);
    await page.getByLabel('Scopes').fill('openid email profile groups');
    await page.getByLabel('New people').selectOption('create');
    await page.getByLabel('Group → role').fill('ops = admin\ndev = editor');
    await screenshotAll(page, 'settings-sign-in-form');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByText('Provider saved').waitFor();
    await page.getByText('Acme ID', { exact: true }).waitFor();
    await screenshotAll(page, 'settings-sign-in');
    // The client secret never reached the browser after the save.
    expect(await page.content()).not.toContain(peer.clientSecret);
    expect(errors).toEqual([]);
    await context.close();

    const fresh = await newPage(browser);
    const freshErrors = watchErrors(fresh.page);
    await fresh.page.goto(`${app.url}/login`);
    const button = fresh.page.getByRole('link', { name: 'Sign in with Acme ID' });
    await button.waitFor();
    await screenshotAll(fresh.page, 'login-oidc');
    await button.click();
    await fresh.page.waitForURL((u) => u.origin === app.url && !u.pathname.startsWith('/login'));
    await fresh.page.getByRole('button', { name: /account menu/i }).waitFor();
    const me = await fresh.page.evaluate(async () => {
      const res = await fetch('/api/v1/auth/me');
      return (await res.json()) as { user: { email: string; role: string } };
    });
    expect(me.user).toMatchObject({ email: 'ana@example.com', role: 'admin' });
    expect(freshErrors).toEqual([]);

    // Signing out ends the provider's session too: its confirmation page, then back to /login.
    await openUserMenu(fresh.page);
    await fresh.page.getByRole('button', { name: /^sign out$/i }).click();
    await fresh.page.waitForURL((u) => u.origin === peer.issuer);
    await fresh.page.getByRole('button', { name: 'Sign out' }).click();
    await fresh.page.waitForURL(`${app.url}/login`);
    const after = await fresh.page.evaluate(async () =>
      (await fetch('/api/v1/auth/status')).json(),
    );
    expect(after).toMatchObject({ signedIn: false });

    // A refused sign-in comes back with a code; the login page says it in words.
    await fresh.context.clearCookies();
    await fresh.page.goto(`${app.url}/login?oidc_error=oidc_domain_not_allowed`);
    await fresh.page.getByText('Your email domain may not sign in here.').waitFor();
    await screenshotAll(fresh.page, 'login-oidc-error');
    await fresh.context.close();
  });
});
