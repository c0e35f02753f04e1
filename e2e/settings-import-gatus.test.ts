import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MonitorList } from '@pagewatch/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** A Gatus config against a loopback service; the ICMP endpoint is one Pagewatch skips. */
const config = (port: number) => `
endpoints:
  - name: shop-api
    group: shop
    url: "http://127.0.0.1:${port}/api/status"
    interval: 10s
    conditions:
      - "[STATUS] == 200"
      - "[BODY].status == ok"
      - "[RESPONSE_TIME] < 2000"
  - name: gateway
    group: network
    url: "icmp://127.0.0.1"
    conditions:
      - "[CONNECTED] == true"
external-endpoints:
  - name: nightly-backup
    group: jobs
    token: "backup-token-0123456789"
    heartbeat:
      interval: 25h
`;

/** Settings → Import → Gatus in real Chromium: preview the YAML, import it, see it checked. */
describe('importing from Gatus in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let shop: Server;
  let yaml: string;

  beforeAll(async () => {
    shop = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
    });
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    yaml = config((shop.address() as AddressInfo).port);
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist, scheduler: true });
    browser = await launchBrowser();
    let context;
    ({ context, page } = await newPage(browser));
    await signIn(context, app.url, app.owner.email, app.owner.password);
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise((r) => shop?.close(r));
  });

  it('previews the YAML without writing, listing what each endpoint becomes', async () => {
    await page.goto(`${app.url}/settings/import`);
    await page.getByRole('heading', { name: 'Import', level: 2 }).waitFor();
    await page.getByRole('radio', { name: 'Gatus' }).check();
    await page.getByRole('heading', { name: 'Gatus', level: 3 }).waitFor();
    await page.locator('input[type=file]').setInputFiles({
      name: 'config.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(yaml),
    });
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Gatus configuration (3 endpoints)').waitFor();
    await preview.getByRole('columnheader', { name: 'In Gatus' }).waitFor();
    const gateway = preview.getByRole('row').filter({ hasText: 'network/gateway' });
    // An ICMP endpoint becomes a ping monitor (issue 19).
    await gateway.getByText('To create', { exact: true }).waitFor();
    expect(await gateway.getByText('Skipped', { exact: true }).count()).toBe(0);
    expect(await preview.getByText('To create', { exact: true }).count()).toBe(4);
    expect(await preview.getByText('History').count()).toBe(0);
    const monitors = MonitorList.parse((await app.inject({ url: '/api/v1/monitors' })).json());
    expect(monitors.items).toEqual([]);
    await screenshotAll(page, 'settings-import-gatus-preview');
  });

  it('imports on confirmation, and the monitor goes up', async () => {
    await page.getByRole('button', { name: 'Import 3 items' }).click();
    await page.getByText(/^Imported: 3 created/).waitFor({ timeout: 15_000 });
    await screenshotAll(page, 'settings-import-gatus-done');
    await page.getByRole('link', { name: 'See the monitors' }).click();
    await page.waitForURL(`${app.url}/`);
    const row = page.getByTestId('monitor-row').filter({ hasText: 'shop-api' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('up');
    expect(errors).toEqual([]);
  });
});
