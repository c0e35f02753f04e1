import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../server/test/fixtures/receiver.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { repositories } from '../server/src/db/repositories/index.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

/** An admin sets up a webhook channel, tests it against a real receiver, and wires a monitor to it. */
describe('notifications', () => {
  let browser: Browser;
  let app: TestApp;
  let receiver: Receiver;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
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
    await receiver?.close();
  });

  async function shoot(name: string) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of [
        ['desktop', desktop],
        ['phone', phone],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.screenshot({
          path: screenshotPath(`notifications-${name}-${size}-${scheme}`),
          fullPage: true,
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(desktop);
  }

  it('creates a webhook channel, sends a test the receiver gets, and shows a failing receiver’s error', async () => {
    await page.goto(`${app.url}/`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Notifications' })
      .click();
    await page.getByRole('heading', { name: 'No notification channels yet' }).waitFor();
    await page.getByRole('link', { name: 'Add channel' }).click();

    // Submitting empty says what is missing, next to the fields.
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByText('Give the channel a name').waitFor();
    await page.getByText('Enter a URL').waitFor();

    await page.getByLabel('Name').fill('Ops hook');
    await page.getByLabel('URL', { exact: true }).fill(receiver.url('/hook'));
    await page.getByLabel('Signing secret').fill('very-secret-signing-key');
    await page.getByLabel('Default for new monitors').check();
    await shoot('form');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('heading', { name: 'Ops hook' }).waitFor();
    // The secret is write-only: shown as set, never filled back in.
    await page.getByText('Set — hidden').waitFor();
    expect(await page.content()).not.toContain('very-secret-signing-key');

    const before = receiver.requests.length;
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test delivered').waitFor();
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(['/hook']);
    await shoot('test-ok');

    // Pointed at a receiver that fails, the test says exactly what it answered.
    await page.getByLabel('URL', { exact: true }).fill(receiver.url('/fail'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('The test was not delivered').waitFor();
    await page.getByText(/HTTP 500: receiver exploded/).waitFor();
    await shoot('test-failed');

    await page.goto(`${app.url}/notifications`);
    const row = page.getByRole('row', { name: /Ops hook/ });
    await row.getByText('Webhook').waitFor();
    await row.getByText('New monitors').waitFor();
    await shoot('list');
  });

  it('saves the channels and rules of a monitor from its alert settings', async () => {
    await page.goto(`${app.url}/monitors/new`);
    const alerts = page.getByTestId('alerts-section');
    // The default channel is ticked on a new monitor.
    const hook = alerts.getByRole('checkbox', { name: /Ops hook/ });
    await expect.poll(() => hook.isChecked()).toBe(true);
    await page.getByLabel('Name', { exact: true }).fill('Checkout');
    await page.getByLabel('URL', { exact: true }).fill('http://127.0.0.1:9/health');
    await alerts.getByLabel('Alert after (checks)').fill('3');
    await alerts.getByLabel('Alert when it becomes degraded').uncheck();
    await shoot('monitor-alerts');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const saved = (await app.inject(`/api/v1/monitors/${id}`)).json<{
      alerts: { afterChecks: number; notifyDegraded: boolean };
      channelIds: number[];
    }>();
    expect(saved.alerts).toMatchObject({ afterChecks: 3, notifyDegraded: false });
    expect(saved.channelIds).toHaveLength(1);

    // Its page lists the alerts sent for it; a failed one can be retried.
    const repos = repositories(app.database);
    await repos.deliveryLog.insert({
      channelId: saved.channelIds[0]!,
      monitorId: id,
      event: {
        kind: 'monitor.down',
        at: new Date().toISOString(),
        monitor: { id, name: 'Checkout', type: 'http', target: 'http://127.0.0.1:9/health' },
        status: 'down',
        previousStatus: 'up',
        cause: {
          code: 'connect_refused',
          message: 'Connection refused',
          phase: 'connect',
          since: null,
        },
        outageMs: null,
        downChecks: 3,
        certificate: null,
        incident: null,
      },
      state: 'failed',
      attempts: 6,
      lastError: 'HTTP 500: receiver exploded',
      createdAt: Date.now(),
    });
    await page.reload();
    const panel = page.getByRole('region', { name: 'Alerts sent' });
    await panel.getByText('HTTP 500: receiver exploded').waitFor();
    await panel.getByRole('button', { name: 'Retry now' }).click();
    await panel.getByText('Retrying').waitFor();
    await shoot('monitor-page');

    await page.goto(`${app.url}/monitors/${id}/edit`);
    await page
      .getByTestId('alerts-section')
      .getByRole('checkbox', { name: /Ops hook/ })
      .uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const edited = (await app.inject(`/api/v1/monitors/${id}`)).json<{ channelIds: number[] }>();
    expect(edited.channelIds).toEqual([]);

    await page.goto(`${app.url}/notifications/deliveries`);
    await page
      .getByRole('cell', { name: /Checkout/ })
      .first()
      .waitFor();
    await shoot('deliveries');
    expect(errors).toEqual([]);
  });
});
