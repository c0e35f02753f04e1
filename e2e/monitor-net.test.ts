import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import {
  startGrpcPeer,
  startUdpPeer,
  startWsPeer,
  type GrpcPeer,
  type UdpPeer,
  type WsPeer,
} from '../server/test/fixtures/net-peers.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/**
 * One monitor of each issue-19 network type made in the form — ping to 127.0.0.1, UDP to an
 * echo listener, WebSocket to a ws server, gRPC to the official health service — each up.
 */
describe('ping, UDP, WebSocket and gRPC monitors from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let udp: UdpPeer;
  let ws: WsPeer;
  let grpc: GrpcPeer;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  beforeAll(async () => {
    udp = await startUdpPeer('127.0.0.1', (msg) => Buffer.from(`pong ${msg.toString()}`));
    ws = await startWsPeer();
    grpc = await startGrpcPeer();
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([udp?.close(), ws?.close(), grpc?.close()]);
  });

  async function startForm(page: Page, type: string, name: string) {
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: type })
      .click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Interval (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('3');
  }

  async function create(page: Page, shot: string) {
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath(`${shot}-form`), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
  }

  it('creates one of each and sees all four up on the dashboard', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);

    await startForm(page, 'Ping', 'Loopback ping');
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Echo requests').fill('2');
    await page.getByLabel(/Between requests/).fill('200');
    await create(page, 'monitor-ping');
    await page.getByRole('heading', { name: 'Loopback ping' }).waitFor();
    await page.getByText('2, 200 ms apart').waitFor();

    await startForm(page, 'UDP', 'UDP echo');
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Port', { exact: true }).fill(String(udp.port));
    await page.getByLabel('Send', { exact: true }).fill('hello\\n');
    await page.getByLabel(/Expect in the reply/).fill('pong');
    await create(page, 'monitor-udp');
    await page.getByRole('heading', { name: 'UDP echo' }).waitFor();

    await startForm(page, 'WebSocket', 'Socket echo');
    await page.getByLabel('URL', { exact: true }).fill(ws.url);
    await page.getByLabel(/Send after the upgrade/).fill('hi');
    await page.getByLabel('Expect', { exact: true }).selectOption('keyword');
    await page.getByLabel('Contains', { exact: true }).fill('echo: hi');
    await create(page, 'monitor-websocket');
    await page.getByRole('heading', { name: 'Socket echo' }).waitFor();

    await startForm(page, 'gRPC', 'Orders health');
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Port', { exact: true }).fill(String(grpc.port));
    await create(page, 'monitor-grpc');
    await page.getByRole('heading', { name: 'Orders health' }).waitFor();
    await page.getByText('The whole server').waitFor();

    await page.goto(`${app.url}/`);
    for (const [name, target] of [
      ['Loopback ping', '127.0.0.1'],
      ['UDP echo', `udp://127.0.0.1:${udp.port}`],
      ['Socket echo', ws.url],
      ['Orders health', `grpc://127.0.0.1:${grpc.port}`],
    ]) {
      const row = page.getByTestId('monitor-row').filter({ hasText: name! });
      await expect
        .poll(() => row.getAttribute('data-status'), { timeout: 20_000, message: name })
        .toBe('up');
      await expect.poll(() => row.textContent()).toContain(target);
    }
    await page.screenshot({ path: screenshotPath('dashboard-net-up'), fullPage: true });
    expect(udp.received.some((b) => b.toString() === 'hello\n')).toBe(true);
    await context.close();
    expect(errors).toEqual([]);
  });
  it('fits each form on a phone and in the dark, light and dark', async () => {
    for (const [label, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      const context = await browser.newContext({
        viewport,
        ...(label === 'phone' ? { isMobile: true, hasTouch: true } : {}),
      });
      await signIn(context, app.url, app.owner.email, app.owner.password);
      const page = await newPage(context);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [type, slug] of [
          ['Ping', 'ping'],
          ['UDP', 'udp'],
          ['WebSocket', 'websocket'],
          ['gRPC', 'grpc'],
        ] as const) {
          await page.goto(`${app.url}/monitors/new`);
          await page
            .getByRole('radiogroup', { name: 'Monitor type' })
            .getByRole('radio', { name: type })
            .click();
          if (slug === 'websocket') {
            await page.getByLabel('URL', { exact: true }).fill('wss://feed.example.com/live');
            await page.getByLabel('Expect', { exact: true }).selectOption('json');
          }
          if (slug === 'grpc') await page.getByLabel('Use TLS').check();
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${type} on ${label}`).toBeLessThanOrEqual(0);
          await page.screenshot({
            path: screenshotPath(`monitor-${slug}-form-${label}-${scheme}`),
            fullPage: true,
          });
        }
      }
      await context.close();
    }
    expect(errors).toEqual([]);
  });
});
