import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../server/test/fixtures/receiver.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

/** A loopback site the form's "Test" checks: `/hello` answers 200, anything else 404. */
async function startSite() {
  const server = http.createServer((req, res) => {
    if (req.url === '/hello') res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A newcomer's first day with alerts: monitors that alert nobody are pointed out, the first
 * channel offers to cover them, typed input survives leaving and the channel dialog, and a
 * monitor's settings can be tried before saving.
 */
describe('alert coverage, unsaved input and test-before-save', () => {
  let browser: Browser;
  let app: TestApp;
  let receiver: Receiver;
  let site: Awaited<ReturnType<typeof startSite>>;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    site = await startSite();
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
    await site?.close();
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
          path: screenshotPath(`coverage-${name}-${size}-${scheme}`),
          fullPage: true,
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(desktop);
  }

  async function createMonitor(name: string, tags: string[]) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'http', name, url: site.url('/hello'), tags, channelIds: [] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  const channelIdsOf = async (id: number) =>
    (await app.inject(`/api/v1/monitors/${id}`)).json<{ channelIds: number[] }>().channelIds;
  const nav = () => page.getByRole('navigation', { name: 'Main' });

  it('marks monitors without a channel, counts them, and the first channel covers them all', async () => {
    const shop = await createMonitor('Shop front', ['web']);
    const db = await createMonitor('Orders database', ['db']);

    await page.goto(`${app.url}/`);
    for (const id of [shop, db]) {
      const row = page.locator(`[data-monitor-id="${id}"]`);
      await row.getByText('No alert channel').waitFor({ state: 'attached' });
    }
    await shoot('dashboard-markers');

    await page.goto(`${app.url}/monitors/${shop}`);
    await page.getByText('This monitor alerts nobody').waitFor();
    await shoot('monitor-notice');

    await page.goto(`${app.url}/notifications`);
    const summary = page.getByTestId('coverage-summary');
    await summary.getByText('2 monitors have no channel').waitFor();
    await summary.getByText('Show them').click();
    await summary.getByRole('link', { name: 'Shop front' }).waitFor();
    await summary.getByRole('link', { name: 'Orders database' }).waitFor();
    await shoot('notifications-count');

    await page.getByRole('link', { name: 'Add channel' }).click();
    const offer = page.getByTestId('first-channel-offer');
    const makeDefault = offer.getByLabel('Make it the default for new monitors');
    const attachAll = offer.getByLabel('Attach it to all 2 existing monitors');
    await expect.poll(() => makeDefault.isChecked()).toBe(true);
    expect(await attachAll.isChecked()).toBe(true);
    await page.getByLabel('Name').fill('On-call hook');
    await page.getByLabel('URL', { exact: true }).fill(receiver.url('/hook'));
    await shoot('first-channel');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('heading', { name: 'On-call hook' }).waitFor();

    const channels = (await app.inject('/api/v1/notification-channels')).json<{
      items: { id: number; isDefault: boolean }[];
    }>().items;
    expect(channels).toHaveLength(1);
    expect(channels[0]!.isDefault).toBe(true);
    expect(await channelIdsOf(shop)).toEqual([channels[0]!.id]);
    expect(await channelIdsOf(db)).toEqual([channels[0]!.id]);

    await page.goto(`${app.url}/notifications`);
    await page.getByRole('row', { name: /On-call hook/ }).waitFor();
    expect(await page.getByTestId('coverage-summary').count()).toBe(0);
    await page.goto(`${app.url}/`);
    await page.locator(`[data-monitor-id="${shop}"]`).waitFor();
    expect(await page.getByText('No alert channel').count()).toBe(0);
  });

  it('attaches a channel to every monitor with a tag in one action', async () => {
    const blog = await createMonitor('Blog', ['web']);
    const cache = await createMonitor('Cache', ['cache']);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: { kind: 'webhook', name: 'Web team', config: { url: receiver.url('/web') } },
    });
    const webTeam = res.json<{ id: number }>().id;

    await page.goto(`${app.url}/notifications/${webTeam}`);
    await page.getByRole('button', { name: 'Attach to monitors…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Attach “Web team” to monitors' });
    await dialog.getByRole('radio', { name: 'Monitors with a tag' }).click();
    await dialog.getByLabel('Tag').selectOption('web');
    await shoot('attach-dialog');
    await dialog.getByRole('button', { name: 'Attach' }).click();
    await page.getByText('Attached to 2 monitors.').waitFor();
    expect(await channelIdsOf(blog)).toContain(webTeam);
    expect(await channelIdsOf(cache)).not.toContain(webTeam);

    // "All monitors" adds it where it is missing; the ones that had it are counted, not doubled.
    await page.getByRole('button', { name: 'Attach to monitors…' }).click();
    await dialog.getByRole('button', { name: 'Attach' }).click();
    await page.getByText(/Attached to 2 monitors; 2 already had it\./).waitFor();
    expect(await channelIdsOf(cache)).toContain(webTeam);
  });

  it('warns before leaving a form with unsaved input, in the app and on unload', async () => {
    await page.goto(`${app.url}/monitors/new`);
    await page.getByLabel('Name', { exact: true }).fill('Half typed');
    await nav().getByRole('link', { name: 'Notifications' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await shoot('leave-dialog');
    await leave.getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe('/monitors/new');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Half typed');

    // Closing the tab asks the browser's own question.
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const question = await asked;
    expect(question.type()).toBe('beforeunload');
    await question.dismiss();
    expect(page.isClosed()).toBe(false);

    await nav().getByRole('link', { name: 'Notifications' }).click();
    await leave.getByRole('button', { name: 'Leave and discard' }).click();
    await page.waitForURL(/\/notifications$/);

    // An untouched form lets go without asking.
    await page.goto(`${app.url}/monitors/new`);
    await page.getByLabel('Name', { exact: true }).waitFor();
    await nav().getByRole('link', { name: 'Notifications' }).click();
    await page.waitForURL(/\/notifications$/);
  });

  it('guards every other form too: maintenance, status page, settings and account', async () => {
    const forms: { path: string; open?: string; label: string; value: string; region?: string }[] =
      [
        { path: '/maintenance', open: 'New window', label: 'Title', value: 'Database upgrade' },
        { path: '/status-pages/new', label: 'Title', value: 'Public status' },
        { path: '/settings/general', label: 'Instance name', value: 'Ops watch' },
        { path: '/settings/retention', label: 'Raw check results', value: '12' },
        { path: '/settings/account', region: 'Password', label: 'Current password', value: 'half' },
      ];
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    for (const f of forms) {
      await page.goto(`${app.url}${f.path}`);
      if (f.open) await page.getByRole('button', { name: f.open }).click();
      const within = f.region ? page.getByRole('region', { name: f.region, exact: true }) : page;
      const field = within.getByLabel(f.label, { exact: true });
      await field.fill(f.value);
      await nav().getByRole('link', { name: 'Incidents' }).click();
      await leave.waitFor();
      await leave.getByRole('button', { name: 'Cancel' }).click();
      await leave.waitFor({ state: 'detached' });
      expect(await field.inputValue(), f.path).toBe(f.value);
      await nav().getByRole('link', { name: 'Incidents' }).click();
      await leave.getByRole('button', { name: 'Leave and discard' }).click();
      await page.waitForURL(/\/incidents$/);
    }
  });

  it('adds a channel from the monitor form in a dialog and comes back with it ticked and the input kept', async () => {
    await page.goto(`${app.url}/monitors/new`);
    await page.getByLabel('Name', { exact: true }).fill('Checkout API');
    await page.getByLabel('URL', { exact: true }).fill(site.url('/hello'));
    const alerts = page.getByTestId('alerts-section');
    await alerts.getByLabel('Alert after (checks)').fill('4');
    await alerts.getByRole('button', { name: 'Add a channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a notification channel' });
    await dialog.getByLabel('Name').fill('Payments pager');
    await dialog.getByLabel('URL', { exact: true }).fill(receiver.url('/payments'));
    await shoot('channel-dialog');
    await dialog.getByRole('button', { name: 'Add channel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const ticked = alerts.getByRole('checkbox', { name: /Payments pager/ });
    await expect.poll(() => ticked.isChecked()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/monitors/new');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Checkout API');
    expect(await page.getByLabel('URL', { exact: true }).inputValue()).toBe(site.url('/hello'));
    expect(await alerts.getByLabel('Alert after (checks)').inputValue()).toBe('4');

    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const channels = (await app.inject('/api/v1/notification-channels')).json<{
      items: { id: number; name: string }[];
    }>().items;
    const payments = channels.find((c) => c.name === 'Payments pager')!;
    expect(await channelIdsOf(id)).toContain(payments.id);
  });

  it('tests a monitor with its unsaved settings against a real server, storing nothing', async () => {
    const before = (await app.inject('/api/v1/monitors')).json<{ items: unknown[] }>().items.length;
    await page.goto(`${app.url}/monitors/new`);
    await page.getByLabel('Name', { exact: true }).fill('Trial run');
    await page.getByLabel('URL', { exact: true }).fill(site.url('/hello'));
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    const result = page.getByTestId('trial-result');
    await result
      .getByRole('status')
      .getByText(/Up · HTTP 200/)
      .waitFor();
    await result.getByText('Connect').waitFor();
    const row = result.getByTestId('assertion-result').first();
    expect(await row.getAttribute('data-passed')).toBe('true');
    await shoot('trial-up');

    await page.getByLabel('URL', { exact: true }).fill(site.url('/missing'));
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await result
      .getByRole('status')
      .getByText(/Down · HTTP 404/)
      .waitFor();
    expect(await result.getByTestId('assertion-result').first().getAttribute('data-passed')).toBe(
      'false',
    );
    await shoot('trial-down');
    const after = (await app.inject('/api/v1/monitors')).json<{ items: unknown[] }>().items.length;
    expect(after).toBe(before);
  });

  it('sends a channel test with the unsaved settings; the stored secret stays on the server', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: {
        kind: 'webhook',
        name: 'Signed hook',
        config: { url: receiver.url('/saved') },
        secrets: { signingSecret: 'stored-signing-secret-3f1a' },
      },
    });
    const id = res.json<{ id: number }>().id;
    await page.goto(`${app.url}/notifications/${id}`);
    await page.getByLabel('URL', { exact: true }).fill(receiver.url('/unsaved'));
    const before = receiver.requests.length;
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test delivered').waitFor();
    const sent = receiver.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual(['/unsaved']);
    expect(sent[0]!.headers['x-pagewatch-signature']).toMatch(/^sha256=/);
    expect(await page.content()).not.toContain('stored-signing-secret-3f1a');
    await shoot('channel-send-test');
    const stored = (await app.inject(`/api/v1/notification-channels/${id}`)).json<{
      config: { url: string };
    }>();
    expect(stored.config.url).toBe(receiver.url('/saved'));

    // The edited channel form guards its input too.
    await nav().getByRole('link', { name: 'Notifications' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Leave and discard' }).click();
    await page.waitForURL(/\/notifications$/);
    expect(errors).toEqual([]);
  });
});
