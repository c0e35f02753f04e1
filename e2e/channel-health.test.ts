import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { desktop, shootAll } from './support/screens.js';

/**
 * Delivery safety in Settings › Notifications (ADR 62): a failing channel carries a badge with
 * its last error, and the form sets a fallback channel and the failures before it is used.
 */
describe('channel health and fallback in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Desktop and phone, light and dark: every screen is looked at in all four. */
  const shoot = (name: string) => shootAll(page, `channel-health-${name}`);

  async function create(body: Record<string, unknown>) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: { kind: 'webhook', config: { url: 'http://127.0.0.1:9/hook' }, ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }

  it('shows a failing badge with the last error, and edits the fallback', async () => {
    const spare = await create({ name: 'Backup pager' });
    const ops = await create({ name: 'Ops hook', fallbackChannelId: spare, failThreshold: 3 });
    // As the notifier leaves it after four given-up deliveries.
    await app.database.db
      .updateTable('notification_channels')
      .set({ consecutive_failures: 4, last_error: 'HTTP 500: upstream unavailable' })
      .where('id', '=', ops)
      .execute();

    await page.goto(`${app.url}/notifications`);
    const row = page.getByRole('row', { name: /Ops hook/ });
    await row.getByText('Failing').waitFor();
    await row.getByText('4 failed in a row: HTTP 500: upstream unavailable').waitFor();
    expect(
      await page
        .getByRole('row', { name: /Backup pager/ })
        .getByText('Failing')
        .count(),
    ).toBe(0);
    await shoot('list');

    await page.goto(`${app.url}/notifications/${spare}`);
    const fallback = page.getByLabel('Fallback channel');
    await fallback.waitFor();
    // Backup pager → Ops hook → Backup pager: refused on the field, with the chain named.
    await fallback.selectOption({ label: 'Ops hook' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/That fallback leads back to this channel/).waitFor();
    await shoot('form-refused');
    expect(errors).toEqual([]);
  });
});
