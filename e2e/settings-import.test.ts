import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, repoRoot, signIn, webDist } from './support/browser.js';

const KUMA_DB = path.resolve(repoRoot, 'server/test/fixtures/uptime-kuma-2.5.3/kuma.db');

/**
 * The fixture pointed at a loopback stand-in for Acme's shop, without what would leave the
 * machine once checks run (the public resolver, the CDN, Slack, Telegram and SMTP).
 */
function loopbackFixture(port: number): Buffer {
  const bytes = fs.readFileSync(KUMA_DB);
  bytes[18] = bytes[19] = 1; // WAL header → rollback, so SQLite opens the image in memory
  const db = new SQLite(bytes);
  try {
    db.exec(`
      delete from monitor_notification where notification_id in (2, 3, 4) or monitor_id in (20, 25);
      delete from notification where id in (2, 3, 4);
      delete from monitor_tag where monitor_id in (20, 25);
      delete from stat_minutely where monitor_id in (20, 25);
      delete from stat_hourly where monitor_id in (20, 25);
      delete from stat_daily where monitor_id in (20, 25);
      delete from heartbeat where monitor_id in (20, 25);
      delete from monitor where id in (20, 25);
      update monitor set url = replace(url, '127.0.0.1:3931', '127.0.0.1:${port}');
      update monitor set port = ${port} where id = 16;
    `);
    return db.serialize();
  } finally {
    db.close();
  }
}

/** Settings → Import in real Chromium: preview Kuma's database, import it, see it checked. */
describe('importing from Uptime Kuma in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let shop: Server;
  let kuma: Buffer;

  beforeAll(async () => {
    shop = createServer((req, res) => {
      if (req.url === '/api/status') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'ok', db: { healthy: true } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Welcome to Acme Shop</h1>');
    });
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    kuma = loopbackFixture((shop.address() as AddressInfo).port);
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

  it('previews the file without writing, listing what is skipped and why', async () => {
    await page.goto(`${app.url}/settings/account`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Import' })
      .click();
    await page.waitForURL(/\/settings\/import$/);
    await page.getByRole('heading', { name: 'Import', level: 2 }).waitFor();
    expect(await page.title()).toMatch(/^Import · Settings/);
    await page.locator('input[type=file]').setInputFiles({
      name: 'kuma.db',
      mimeType: 'application/octet-stream',
      buffer: kuma,
    });
    await page.getByText(`kuma.db · ${kuma.length.toLocaleString('en')} bytes`).waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Uptime Kuma 2.5.3 database', { exact: false }).waitFor();
    const ping = preview.getByRole('row').filter({ hasText: 'Gateway ping (loopback)' });
    // Kuma's ping monitors become ping monitors (issue 19).
    await ping.getByText('To create', { exact: true }).waitFor();
    expect(await preview.getByText('To create', { exact: true }).count()).toBeGreaterThan(20);
    const list = await app.inject({ url: '/api/v1/monitors' });
    expect(list.json<{ items: unknown[] }>().items).toEqual([]);
    await screenshotAll(page, 'settings-import-preview');
    expect(errors).toEqual([]);
  });

  it('imports on confirmation, then the monitors run on the dashboard', async () => {
    await page.getByRole('button', { name: /^Import \d+ items$/ }).click();
    await page.getByText(/^Imported: \d+ created/).waitFor({ timeout: 15_000 });
    await page.getByRole('region', { name: 'Result' }).waitFor();
    await screenshotAll(page, 'settings-import-done');
    await page.getByRole('link', { name: 'See the monitors' }).click();
    await page.waitForURL(`${app.url}/`);
    const row = page
      .getByTestId('monitor-row')
      .filter({ hasText: 'Shop homepage shows welcome text' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('up');
    const json = page.getByTestId('monitor-row').filter({ hasText: 'API status' });
    await expect.poll(() => json.getAttribute('data-status'), { timeout: 30_000 }).toBe('up');
    expect(errors).toEqual([]);
  });
});
