import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import {
  awayFromStepEdge,
  newPage,
  screenshotAll,
  signInWithForm,
  signOutWithMenu,
  totpAt,
  totpNow,
  watchErrors,
} from './support/auth-ui.js';
import { launchBrowser, webDist } from './support/browser.js';

const OWNER = {
  name: 'Rosa Owner',
  email: 'rosa@example.com',
  password: 'plum orchard sunrise 42',
};

/** First run to two-factor sign-in, in real Chromium against a fresh server with no accounts. */
describe('setup, sign-in and two-factor in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist, setup: false });
    browser = await launchBrowser();
    ({ page } = await newPage(browser));
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('asks for the setup token when the server says this machine needs one', async () => {
    // The browser is on the server's own machine, so the server never asks it; play the
    // answers of a remote setup to see the form handle them.
    await page.route('**/api/v1/auth/status', (route) =>
      route.fulfill({ json: { setupRequired: true, setupTokenRequired: true } }),
    );
    await page.route('**/api/v1/auth/setup', (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/problem+json',
        json: {
          type: 'forbidden',
          title: 'Forbidden',
          status: 403,
          detail: 'Enter the setup token printed in the server log when Pagewatch started',
        },
      }),
    );
    await page.goto(`${app.url}/`);
    await page.waitForURL(/\/setup$/);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByLabel('Confirm password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await page.getByText('Enter the setup token from the server log').waitFor();
    await page.getByLabel('Setup token').fill('wrong-token');
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await page.getByText('Enter the setup token printed in the server log').waitFor();
    expect(await page.getByLabel('Setup token').getAttribute('aria-invalid')).toBe('true');
    await screenshotAll(page, 'setup-token');
    await page.unrouteAll();
  });

  it('leads every route to /setup, creates the owner and goes into the app', async () => {
    await page.goto(`${app.url}/monitors/12`);
    await page.waitForURL(/\/setup$/);
    await page.getByRole('heading', { name: 'Set up Pagewatch' }).waitFor();
    expect(await page.getByLabel('Setup token').count()).toBe(0);

    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    // The rules are ticked off live: a common password is called out before submitting.
    await page.getByLabel('Password', { exact: true }).fill('qwertyuiop');
    const rules = page.getByRole('list', { name: 'Password rules' });
    await expect.poll(() => rules.textContent()).toMatch(/commonly used password: not met/);
    expect(await rules.textContent()).toMatch(/At least 10 characters: met/);
    await page.getByLabel('Confirm password').fill('something else');
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await page.getByText('The two passwords are not the same').waitFor();
    await screenshotAll(page, 'setup-errors');

    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByLabel('Confirm password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('heading', { name: 'Monitors', exact: true }).waitFor();
    await page.getByRole('button', { name: /account menu/i }).waitFor();
    expect(await page.getByRole('link', { name: /new monitor/i }).count()).toBeGreaterThan(0);

    // Setup happens once: /setup now leads to the app (signed in) and to sign-in (signed out).
    const status = await (await fetch(`${app.url}/api/v1/auth/status`)).json();
    expect(status).toMatchObject({ setupRequired: false });
  });

  it('signs out and back in, remembering where the person was going', async () => {
    await page.getByRole('button', { name: /account menu/i }).click();
    await screenshotAll(page, 'user-menu');
    await page.keyboard.press('Escape');
    await signOutWithMenu(page);

    await page.goto(`${app.url}/setup`);
    await page.waitForURL(/\/login$/);
    await page.goto(`${app.url}/settings/account`);
    await page.waitForURL(/\/login\?next=%2Fsettings%2Faccount$/);
    await signInWithForm(page, OWNER.email, 'not the password');
    await page.getByText('Email or password is incorrect').waitFor();
    await screenshotAll(page, 'login-wrong-password');
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/settings\/account$/);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
  });

  it('turns on two-factor with the QR code or the key, and shows the recovery codes once', async () => {
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    const qr = page.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;utf8,/);
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    const key = (await page.getByLabel('Setup key').textContent()) ?? '';
    expect(key.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{16,}$/);
    await screenshotAll(page, 'account-totp-enrol');

    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByText(/That code is not valid/).waitFor();
    await awayFromStepEdge();
    await page.getByLabel('6-digit code').fill(totpAt(key, -1));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();

    await page.getByText('Save your recovery codes now').waitFor();
    const codes = await page
      .getByRole('list', { name: 'Recovery codes' })
      .locator('li')
      .allTextContents();
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    await screenshotAll(page, 'account-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Signing in needs your password and a code').waitFor();
    expect(await page.getByText(codes[0]!).count()).toBe(0);
    await screenshotAll(page, 'account-totp-on');

    await signOutWithMenu(page);
    await signInWithForm(page, OWNER.email, OWNER.password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await screenshotAll(page, 'login-totp');

    // A two-factor step that ran out (5 minutes, or too many codes) starts over at the password.
    await page.route(
      '**/api/v1/auth/login/totp',
      (route) =>
        route.fulfill({
          status: 401,
          contentType: 'application/problem+json',
          json: {
            type: 'unauthenticated',
            title: 'Unauthorized',
            status: 401,
            detail: 'This sign-in has expired; enter your password again',
          },
        }),
      { times: 1 },
    );
    await page.getByLabel('6-digit code').fill('123456');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByText('This sign-in has expired; enter your password again').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByLabel('6-digit code').fill(totpNow(key));
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('heading', { name: 'Monitors', exact: true }).waitFor();

    // A recovery code works once instead of the app's code.
    await signOutWithMenu(page);
    await signInWithForm(page, OWNER.email, OWNER.password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[3]!);
    await screenshotAll(page, 'login-recovery-code');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL(`${app.url}/`);

    // Turning it off asks for the password and a code.
    await page.goto(`${app.url}/settings/account`);
    await page.getByRole('button', { name: 'Turn off two-factor' }).click();
    await page.getByLabel('Your password').fill('not it at all');
    await page.getByLabel('Code from your app, or a recovery code').fill(totpAt(key, 1));
    await page.getByRole('button', { name: 'Turn off two-factor' }).click();
    await page.getByText('This is not your password').waitFor();
    await screenshotAll(page, 'account-totp-disable');
    await page.getByLabel('Your password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Turn off two-factor' }).click();
    await page.getByText('Two-factor sign-in is off.').waitFor();
    await page.getByRole('button', { name: 'Set up two-factor' }).waitFor();

    expect(errors).toEqual([]);
  });
});
