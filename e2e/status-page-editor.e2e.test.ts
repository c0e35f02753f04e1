import { Monitor, StatusPage, StatusPageList } from '@pagewatch/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { pngBytes, svgBytes } from '../server/test/support/images.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/** An editor builds a status page in the browser; the API returns what the screen showed. */
describe('status page editor in the browser', () => {
  let browser: Browser;
  let app: TestApp;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // Refused values answer 400, and the preview 404 until its endpoint exists.
      // The preview frame runs no script by design and reports what its sandbox blocks.
      if (m.location().url === 'about:srcdoc') return;
      if (m.type() === 'error' && !/status of (400|404)/.test(m.text()))
        errors.push(`${m.text()} @ ${m.location().url}`);
    });
    return page;
  }

  async function api(method: string, url: string, body?: unknown) {
    const res = await fetch(`${app.url}${url}`, {
      method,
      headers: {
        ...app.owner.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      body: res.status === 204 ? null : ((await res.json()) as unknown),
    };
  }

  async function monitor(name: string) {
    const res = await api('POST', '/api/v1/monitors', {
      type: 'http',
      name,
      url: `http://127.0.0.1:9/${name.toLowerCase()}`,
      interval: 3600,
    });
    return Monitor.parse(res.body);
  }

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    browser = await launchBrowser();
    for (const name of ['API', 'Web', 'Database']) await monitor(name);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function editorAs(colorScheme: 'light' | 'dark', width: number) {
    const editor = await app.identity('editor');
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      colorScheme,
    });
    await signIn(context, app.url, editor.email, editor.password);
    return { context, page: await newPage(context) };
  }

  async function addMonitor(page: Page, section: string, name: string) {
    await page.getByRole('button', { name: `Add monitor to ${section}` }).click();
    await page.getByRole('searchbox', { name: `Search monitors to add to ${section}` }).fill(name);
    await page
      .getByRole('list', { name: 'Monitors not on the page' })
      .getByRole('button', { name: new RegExp(`^${name}`) })
      .click();
    await page.getByRole('button', { name: 'Done' }).click();
  }

  const order = (page: Page) =>
    page
      .getByTestId('status-section')
      .evaluateAll((sections) =>
        sections.map((s) => [
          (s.querySelector('[data-field$=".title"] input') as HTMLInputElement).value,
          [...s.querySelectorAll('[data-testid="status-component"] .sp-comp__monitor')].map(
            (c) => c.textContent,
          ),
        ]),
      );

  it('creates a page with two sections, orders it by keyboard and drag, uploads a logo and publishes it', async () => {
    const { context, page } = await editorAs('light', 1280);
    await page.goto(`${app.url}/`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Status pages' })
      .click();
    await page.getByText('No status pages yet').waitFor();
    await page.screenshot({ path: screenshotPath('status-pages-empty'), fullPage: true });
    await page.getByRole('link', { name: 'Create a status page' }).click();
    await page.getByRole('heading', { name: 'New status page' }).waitFor();

    // The slug follows the title until someone types one; a bad one is refused on its field.
    await page.getByLabel('Title', { exact: true }).fill('Acme Cloud');
    expect(await page.getByLabel('Slug').inputValue()).toBe('acme-cloud');
    await page.getByLabel('Slug').fill('Acme Cloud!');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page
      .locator('[data-field="slug"] .field__error')
      .getByText(/Lower-case letters, digits and hyphens/)
      .waitFor();
    await page.screenshot({ path: screenshotPath('status-page-editor-slug-error') });
    await page.getByLabel('Slug').fill('acme');
    await page
      .getByLabel(/^Description/)
      .first()
      .fill('Live status of **Acme Cloud**.');

    await page.getByLabel('Section title').fill('Core');
    await addMonitor(page, 'Core', 'API');
    await addMonitor(page, 'Core', 'Web');
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByLabel('Section title').nth(1).fill('Data');
    await addMonitor(page, 'Data', 'Database');
    expect(await order(page)).toEqual([
      ['Core', ['API', 'Web']],
      ['Data', ['Database']],
    ]);

    // Keyboard: the focused handle moves with Alt+↑, and the move is announced.
    await page.getByRole('button', { name: 'Reorder Web' }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect
      .poll(() => page.getByTestId('reorder-announcement').textContent())
      .toBe('Web moved to position 1 of 2 in Core.');
    expect(
      await page
        .getByRole('button', { name: 'Reorder Web' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    // Drag: API goes above Database, in the other section. Both in sight at once: each
    // component's row has grown (its locations option), and this drag does not scroll.
    const database = page.getByTestId('status-component').filter({ hasText: 'Database' });
    await page.setViewportSize({ width: 1280, height: 1600 });
    await page
      .getByRole('button', { name: 'Reorder API' })
      .dragTo(database, { targetPosition: { x: 40, y: 4 } });
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect
      .poll(() => order(page))
      .toEqual([
        ['Core', ['Web']],
        ['Data', ['API', 'Database']],
      ]);

    // Logo: SVG and oversized files are refused before upload; a PNG shows its preview.
    const file = page.locator('input[type="file"]');
    await file.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: svgBytes });
    await page.getByText(/SVG logos are not accepted/).waitFor();
    const big = Buffer.concat([pngBytes, Buffer.alloc(300 * 1024)]);
    await file.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await page.getByText(/logos are limited to 256 KiB/).waitFor();
    await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes });
    await page.getByRole('img', { name: 'Logo preview' }).waitFor();

    await page.getByRole('switch', { name: 'Published' }).check();
    // The preview renders the draft, or says why it cannot yet.
    await page
      .locator('iframe[title="Status page preview"], [data-testid="preview-unavailable"]')
      .first()
      .waitFor();
    await page.screenshot({
      path: screenshotPath('status-page-editor-1280-light'),
      fullPage: true,
    });
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.getByRole('heading', { name: 'Edit “Acme Cloud”' }).waitFor();
    await page.getByText('Saved.').first().waitFor();

    const list = StatusPageList.parse((await api('GET', '/api/v1/status-pages')).body);
    expect(list.items).toMatchObject([{ slug: 'acme', published: true, componentCount: 3 }]);
    const saved = StatusPage.parse(
      (await api('GET', `/api/v1/status-pages/${list.items[0]!.id}`)).body,
    );
    expect(saved.sections.map((s) => [s.title, s.components.map((c) => c.monitorName)])).toEqual([
      ['Core', ['Web']],
      ['Data', ['API', 'Database']],
    ]);
    expect(saved.description).toBe('Live status of **Acme Cloud**.');
    expect(saved.logoUrl).toMatch(/\/logo\?v=/);
    // The editor shows the stored logo from the API.
    await page.getByRole('img', { name: 'Logo preview' }).waitFor();
    expect(await page.getByRole('img', { name: 'Logo preview' }).getAttribute('src')).toBe(
      saved.logoUrl,
    );
    expect(await order(page)).toEqual([
      ['Core', ['Web']],
      ['Data', ['API', 'Database']],
    ]);

    await page.getByRole('link', { name: 'Status pages', exact: true }).first().click();
    const row = page.getByTestId('status-page-row').filter({ hasText: 'Acme Cloud' });
    await row.getByText('Published').waitFor();
    expect(await row.getByRole('link', { name: /\/status\/acme/ }).getAttribute('target')).toBe(
      '_blank',
    );
    await page.screenshot({ path: screenshotPath('status-pages-list-1280-light'), fullPage: true });
    await context.close();
    expect(errors).toEqual([]);
  });

  for (const [scheme, width] of [
    ['dark', 1280],
    ['light', 390],
    ['dark', 390],
  ] as const) {
    it(`is usable at ${width} px in the ${scheme} theme`, async () => {
      const { items } = StatusPageList.parse((await api('GET', '/api/v1/status-pages')).body);
      const { context, page } = await editorAs(scheme, width);
      await page.goto(`${app.url}/status-pages`);
      await page.getByTestId('status-page-row').first().waitFor();
      await page.screenshot({
        path: screenshotPath(`status-pages-list-${width}-${scheme}`),
        fullPage: true,
      });
      await page.goto(`${app.url}/status-pages/${items[0]!.id}/edit`);
      await page.getByRole('heading', { name: 'Edit “Acme Cloud”' }).waitFor();
      await page.getByRole('img', { name: 'Logo preview' }).waitFor();
      if (width < 1000) {
        // Phones: the preview waits behind its toggle.
        expect(await page.getByRole('complementary', { name: 'Preview' }).isVisible()).toBe(false);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(width);
        // The move buttons do on a phone what the drag does on a desktop.
        await page.getByRole('button', { name: 'Move Database up' }).click();
        await page
          .getByTestId('reorder-announcement')
          .getByText('Database moved to position 1 of 2 in Data.')
          .waitFor();
      }
      await page.screenshot({
        path: screenshotPath(`status-page-editor-${width}-${scheme}`),
        fullPage: true,
      });
      if (width < 1000) {
        await page.getByRole('button', { name: 'Preview' }).click();
        await page.getByRole('complementary', { name: 'Preview' }).waitFor();
        await page.screenshot({
          path: screenshotPath(`status-page-editor-${width}-${scheme}-preview`),
        });
      }
      await context.close();
      expect(errors).toEqual([]);
    });
  }
  it("lists the page's subscribers and removes one", async () => {
    const created = await api('POST', '/api/v1/status-pages', {
      slug: 'followed',
      title: 'Followed',
      published: true,
      subscriptions: { email: false, webhook: true, emailChannelId: null },
    });
    const followed = StatusPage.parse(created.body);
    const subscribed = await fetch(`${app.url}/status/followed/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'webhook', address: 'https://hooks.example.test/status' }),
    });
    expect(subscribed.status).toBe(202);
    // Their newest notice failed for good: the editor sees it, and why.
    const listed = await api('GET', `/api/v1/status-pages/${followed.id}/subscribers`);
    const subscriberId = (listed.body as { items: { id: number }[] }).items[0]!.id;
    await app.database.db
      .insertInto('deliveries')
      .values({
        channel_id: null,
        subscriber_id: subscriberId,
        monitor_id: null,
        order_key: 'i:1',
        event_kind: 'subscriber.incident',
        payload: '{}',
        state: 'failed',
        attempts: 1,
        next_attempt_at: null,
        lease_until: null,
        leased_by: null,
        last_error: 'HTTP 410 from hooks.example.test: no such hook',
        created_at: Date.now() - 60_000,
        sent_at: null,
      })
      .execute();
    const { context, page } = await editorAs('light', 1280);
    await page.goto(`${app.url}/status-pages/${followed.id}/edit`);
    const table = page.getByRole('table', { name: 'Subscribers' });
    await table.getByRole('cell', { name: 'https://hooks.example.test/status' }).waitFor();
    await page.getByText('1 confirmed of 1 subscriber.').waitFor();
    await table.getByText('Failed after 1 attempt').waitFor();
    await table.getByText('HTTP 410 from hooks.example.test: no such hook').waitFor();
    await table.screenshot({ path: screenshotPath('status-page-editor-subscribers') });
    await table.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove subscriber' }).click();
    await page.getByText('Nobody has subscribed yet.').waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });
});
