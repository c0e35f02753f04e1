import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { checkRun, monitorInput } from '../server/test/support/factories.js';
import { insertStatusPage } from '../server/test/support/status-pages.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/** Another site: serves one page that embeds Pagewatch's badge and reads its status JSON. */
async function otherSite(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Badges and the status JSON on another origin, and the badge builder, in real Chromium. */
describe('badges embedded on other sites', () => {
  let browser: Browser;
  let app: TestApp;
  let shown: number;
  let alone: number;
  const errors: string[] = [];

  async function monitor(name: string): Promise<number> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  }

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    shown = await monitor('api-internal');
    alone = await monitor('Batch jobs');
    await repositories(app.database).results.writeBatch([
      {
        monitorId: shown,
        at: Date.now() - 1000,
        run: checkRun(),
        status: 'up',
        failures: 0,
        recent: [],
        flip: { from: 'pending', to: 'up' },
      },
    ]);
    await insertStatusPage(app.database, app.hub, {
      slug: 'acme',
      title: 'Acme Cloud',
      sections: [{ components: [{ monitorId: shown, displayName: 'Public API' }] }],
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('loads the badge and reads the status JSON from another origin, as CORP and CORS allow', async () => {
    // The favicon is an SVG image too, without the badge's CORP: the browser must refuse it.
    const site = await otherSite(`<!doctype html><title>Blog</title>
      <img id="badge" alt="Public API status" src="${app.url}/badge/${shown}/status.svg?style=flat-square">
      <img id="uptime" alt="Public API uptime" src="${app.url}/badge/${shown}/uptime-30d.svg">
      <img id="icon" alt="" src="${app.url}/favicon.svg">`);
    try {
      const context = await browser.newContext();
      const page = await newPage(context);
      const failed = new Map<string, string>();
      page.on('requestfailed', (r) =>
        failed.set(new URL(r.url()).pathname, r.failure()!.errorText),
      );
      await page.goto(site.url);
      await page.waitForFunction(() => [...document.images].every((img) => img.complete));
      const width = (id: string) =>
        page.$eval(`#${id}`, (img) => (img as HTMLImageElement).naturalWidth);
      expect(await width('badge')).toBeGreaterThan(0);
      expect(await width('uptime')).toBeGreaterThan(0);
      expect(await width('icon')).toBe(0);
      expect(failed.get('/favicon.svg')).toMatch(/ERR_BLOCKED_BY_RESPONSE/);
      expect(failed.has(`/badge/${shown}/status.svg`)).toBe(false);

      const read = await page.evaluate(async (app) => {
        const json = await fetch(`${app}/status/acme/index.json`).then((r) => r.json());
        const feed = await fetch(`${app}/status/acme/feed.atom`).then((r) => r.text());
        const api = await fetch(`${app}/api/v1/openapi.json`).then(
          () => 'read',
          () => 'refused',
        );
        return { title: (json as { title: string }).title, feed: feed.slice(0, 60), api };
      }, app.url);
      expect(read.title).toBe('Acme Cloud');
      expect(read.feed).toContain('<feed');
      expect(read.api).toBe('refused');
      await page.screenshot({ path: screenshotPath('badge-embed-other-site') });
      await context.close();
    } finally {
      await site.close();
    }
  });

  it('builds a badge on the monitor page and copies its Markdown', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/monitors/${shown}`);
    const panel = page.getByRole('region', { name: 'Badge' });
    await panel.getByRole('img', { name: 'Public API status' }).waitFor();
    await panel.getByRole('button', { name: 'Build a badge' }).click();

    const dialog = page.getByRole('dialog', { name: 'Embed a badge' });
    await dialog
      .getByRole('radiogroup', { name: 'Shows' })
      .getByRole('radio', { name: 'Uptime' })
      .click();
    await dialog.getByRole('radio', { name: '30 days' }).click();
    await dialog.getByLabel('Style').selectOption({ label: 'Flat square' });
    const preview = dialog.getByRole('img', { name: 'Public API uptime (30 days)' });
    await expect
      .poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await preview.getAttribute('src')).toBe(
      `/badge/${shown}/uptime-30d.svg?style=flat-square`,
    );

    await dialog.getByRole('button', { name: 'Copy Markdown' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Copied to the clipboard' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(
      `![Public API uptime (30 days)](${app.url}/badge/${shown}/uptime-30d.svg?style=flat-square)`,
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says plainly that a monitor on no published page has no badge', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/monitors/${alone}`);
    const panel = page.getByRole('region', { name: 'Badge' });
    await panel
      .getByText('Badges work for monitors shown on a published status page — add it to one.')
      .waitFor();
    expect(await panel.getByRole('img').count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Build a badge' }).count()).toBe(0);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('badge-panel-unavailable') });
    await context.close();
  });

  it('looks right on desktop and phone, light and dark', async () => {
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport, colorScheme });
        await signIn(context, app.url, app.owner.email, app.owner.password);
        const page = await newPage(context);
        await page.goto(`${app.url}/monitors/${shown}`);
        const panel = page.getByRole('region', { name: 'Badge' });
        await panel.getByRole('img', { name: 'Public API status' }).waitFor();
        await panel.scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`badge-panel-${name}-${colorScheme}`) });
        await panel.getByRole('button', { name: 'Build a badge' }).click();
        const dialog = page.getByRole('dialog', { name: 'Embed a badge' });
        await dialog.getByRole('radio', { name: 'Uptime' }).click();
        await dialog.getByLabel('Label').fill('API');
        await expect
          .poll(() =>
            dialog
              .getByRole('img', { name: 'API uptime (30 days)' })
              .evaluate((img) => (img as HTMLImageElement).naturalWidth),
          )
          .toBeGreaterThan(0);
        await page.screenshot({ path: screenshotPath(`badge-builder-${name}-${colorScheme}`) });
        await context.close();
      }
    }
    expect(errors).toEqual([]);
  });
});
