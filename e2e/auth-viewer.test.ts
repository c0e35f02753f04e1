import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, signInWithForm, watchErrors } from './support/auth-ui.js';
import { launchBrowser, webDist } from './support/browser.js';

/** SPEC §6 in the browser: a viewer sees everything and is offered nothing they cannot do. */
describe('a viewer in the browser', () => {
  let browser: Browser;
  let app: TestApp;
  let viewer: Identity;
  let page: Page;
  let errors: string[];
  let monitorId: number;

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    viewer = await app.identity('viewer');
    const res = await fetch(`${app.url}/api/v1/monitors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...app.owner.headers },
      body: JSON.stringify({
        type: 'http',
        name: 'Storefront',
        url: 'http://127.0.0.1:9/',
        paused: true,
      }),
    });
    expect(res.status).toBe(201);
    monitorId = ((await res.json()) as { id: number }).id;
    browser = await launchBrowser();
    ({ page } = await newPage(browser));
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('signs in through the form and sees monitors without any controls to change them', async () => {
    await page.goto(`${app.url}/monitors/${monitorId}`);
    await page.waitForURL(/\/login\?next=/);
    await screenshotAll(page, 'login');
    await signInWithForm(page, viewer.email, viewer.password);
    await page.waitForURL(new RegExp(`/monitors/${monitorId}$`));
    await page.getByRole('heading', { name: 'Storefront' }).waitFor();
    for (const name of ['Edit', 'Delete', 'Pause', 'Resume', 'Check now']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      expect(await page.getByRole('link', { name }).count(), name).toBe(0);
    }

    await page
      .getByRole('link', { name: /dashboard/i })
      .first()
      .click();
    await page.getByTestId('monitor-row').first().waitFor();
    expect(await page.getByRole('link', { name: /new monitor/i }).count()).toBe(0);
    await page.getByRole('button', { name: /account menu/i }).click();
    await page.getByText('Viewer', { exact: true }).first().waitFor();
    await page.keyboard.press('Escape');
  });

  it('keeps the whole top bar in sight at every width, from phone to desktop', async () => {
    await page.goto(`${app.url}/`);
    for (const width of [390, 761, 800, 900, 1000, 1100, 1280]) {
      await page.setViewportSize({ width, height: 700 });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${width} px scrolls sideways`).toBe(0);
      const menu = await page.getByRole('button', { name: /account menu/i }).boundingBox();
      expect(menu!.x + menu!.width, `${width} px: the account menu`).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('explains the editor role on the create and edit screens', async () => {
    for (const path of ['/monitors/new', `/monitors/${monitorId}/edit`]) {
      await page.goto(`${app.url}${path}`);
      await page.getByRole('heading', { name: 'You need the editor role' }).waitFor();
      expect(await page.getByLabel('URL', { exact: true }).count()).toBe(0);
    }
    await screenshotAll(page, 'viewer-needs-editor');

    // Settings offer only what a viewer may open; admin screens explain themselves if typed in.
    await page.goto(`${app.url}/settings`);
    await page.waitForURL(/\/settings\/account$/);
    const nav = page.getByRole('navigation', { name: 'Settings' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Account', 'API keys']);
    await page.goto(`${app.url}/settings/users`);
    await page.getByRole('heading', { name: 'You need the admin role' }).waitFor();
  });

  it('is refused by the API when it tries to create a monitor with its session', async () => {
    const status = await page.evaluate(async () => {
      const me = (await (await fetch('/api/v1/auth/me')).json()) as { csrfToken: string };
      const res = await fetch('/api/v1/monitors', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrfToken },
        body: JSON.stringify({ type: 'http', name: 'Sneaky', url: 'https://example.com/' }),
      });
      return res.status;
    });
    expect(status).toBe(403);
    expect(errors).toEqual([]);
  });

  it('after too many wrong passwords, says in plain words how long to wait', async () => {
    const { email } = await app.identity('editor');
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${app.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `wrong guess ${i}` }),
      });
      expect(res.status).toBe(401);
    }
    const { page: fresh } = await newPage(browser);
    await fresh.goto(`${app.url}/login`);
    await signInWithForm(fresh, email, 'one more wrong guess');
    await fresh.getByText('Too many failed sign-in attempts').waitFor();
    await fresh.getByText(/Try again in 15 minutes\./).waitFor();
    const button = fresh.getByRole('button', { name: /Try again in 1[45]:\d\d/ });
    expect(await button.isDisabled()).toBe(true);
    await screenshotAll(fresh, 'login-rate-limited');
  });
});
