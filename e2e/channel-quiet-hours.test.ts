import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { desktop, shootAll } from './support/screens.js';

/**
 * A channel's quiet hours in Settings › Notifications (ADR 68): add a window, choose the
 * channel warnings go to meanwhile, save, and the API holds both.
 */
describe('channel quiet hours in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop, timezoneId: 'Europe/Berlin' });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Desktop and phone, light and dark: every screen is looked at in all four. */
  const shoot = (name: string) => shootAll(page, `channel-quiet-hours-${name}`);

  async function create(name: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: { kind: 'webhook', name, config: { url: 'http://127.0.0.1:9/hook' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }

  it('adds a night window and reroutes warnings to another channel', async () => {
    const mail = await create('Mail digest');
    const pager = await create('Ops pager');
    await page.goto(`${app.url}/notifications/${pager}`);
    await page.getByText('No quiet hours: every message goes at once.').waitFor();
    await page.getByRole('button', { name: 'Add window' }).click();
    const list = page.getByRole('list', { name: 'Quiet hours of this channel' });
    await list.locator('.cm-row__main').first().waitFor();
    expect(await list.locator('.cm-row__main').allTextContents()).toEqual([
      'Mon, Tue, Wed, Thu, Fri 22:00–07:00 (Europe/Berlin)',
    ]);
    await page
      .getByLabel('During quiet hours, warnings')
      .selectOption({ label: 'Go to Mail digest at once' });
    await shoot('form');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(async () => (await app.inject(`/api/v1/notification-channels/${pager}`)).json())
      .toMatchObject({
        quietHours: {
          windows: [
            { days: [1, 2, 3, 4, 5], from: '22:00', to: '07:00', timeZone: 'Europe/Berlin' },
          ],
          rerouteChannelId: mail,
        },
      });
    expect(errors).toEqual([]);
  });
});
