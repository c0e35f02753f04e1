import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { desktop, shootAll } from './support/screens.js';

/**
 * A channel's quiet hours in Settings › Notifications (ADR 68): add a window, choose the
 * channel warnings go to meanwhile, save, and the API holds both. The Deliveries screen says
 * which deliveries were rerouted, and which a failing channel's fallback carried (ADR 62).
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

  it('marks on the Deliveries screen what quiet hours rerouted and what a fallback carried', async () => {
    const channels = (await app.inject('/api/v1/notification-channels')).json<{
      items: { id: number; name: string }[];
    }>().items;
    const id = (name: string) => channels.find((c) => c.name === name)!.id;
    const event = (monitor: string) => ({
      kind: 'monitor.down' as const,
      at: new Date().toISOString(),
      monitor: { id: 1, name: monitor, type: 'http' as const, target: 'https://shop.example/' },
      status: 'down' as const,
      previousStatus: 'up' as const,
      cause: null,
      outageMs: null,
      downChecks: 1,
      certificate: null,
      incident: null,
    });
    const log = repositories(app.database).deliveryLog;
    const base = { monitorId: null, state: 'sent' as const, attempts: 1, lastError: null };
    await log.insert({
      ...base,
      channelId: id('Mail digest'),
      event: {
        ...event('Checkout'),
        rerouted: { from: [{ channelId: id('Ops pager'), channelName: 'Ops pager' }] },
      },
      createdAt: Date.now() - 60_000,
    });
    await log.insert({
      ...base,
      channelId: id('Mail digest'),
      event: {
        ...event('Search'),
        fallback: {
          channelId: id('Ops pager'),
          channelName: 'Ops pager',
          failures: 3,
          lastError: 'HTTP 502',
        },
      },
      createdAt: Date.now() - 30_000,
    });
    await log.insert({
      ...base,
      channelId: id('Ops pager'),
      event: event('Billing'),
      createdAt: Date.now(),
    });

    await page.goto(`${app.url}/notifications/deliveries`);
    const row = (monitor: string) => page.getByRole('row').filter({ hasText: monitor });
    await row('Checkout').getByText('Rerouted from Ops pager (quiet hours)').waitFor();
    await row('Search').getByText('Fallback for Ops pager (3 failed in a row)').waitFor();
    expect(await row('Billing').locator('.dl-route').count()).toBe(0);
    await shoot('deliveries');
    expect(errors).toEqual([]);
  });
});
