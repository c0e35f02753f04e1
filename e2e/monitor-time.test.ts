import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBootstrap } from '../server/src/engine/checks/domain/bootstrap.js';
import { RdapClient } from '../server/src/engine/checks/domain/client.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const DAY = 86_400_000;

/**
 * A domain expiry monitor and a cron-scheduled push monitor made in the form: the domain one
 * checked against a loopback RDAP registry (the bootstrap points `.test` at it), up with its
 * registration shown; the push one showing its schedule and the next expected ping.
 */
describe('domain expiry and cron push monitors from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let registry: Server;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  async function chooseType(page: Page, label: string): Promise<void> {
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: label })
      .click();
  }

  /** The page in both schemes and both sizes, for people to look at. */
  async function shots(page: Page, name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.screenshot({
          path: screenshotPath(`${name}-${size}-${scheme}`),
          fullPage: true,
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  beforeAll(async () => {
    registry = createServer((req, res) => {
      const name = (req.url ?? '').replace(/^\/domain\//, '');
      if (name !== 'example.test') {
        res.writeHead(404, { 'content-type': 'application/rdap+json' });
        return void res.end('{"errorCode":404}');
      }
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(
        JSON.stringify({
          objectClassName: 'domain',
          ldhName: name,
          events: [
            {
              eventAction: 'expiration',
              eventDate: new Date(Date.now() + 200 * DAY).toISOString(),
            },
          ],
          entities: [
            {
              roles: ['registrar'],
              vcardArray: ['vcard', [['fn', {}, 'text', 'Loopback Registrar Ltd']]],
            },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
    const bootstrap = parseBootstrap(JSON.stringify({ services: [[['test'], [base]]] }));
    app = await startTestApp({
      engine: 'sqlite',
      scheduler: true,
      listen: true,
      webDist,
      checks: { rdap: new RdapClient({ bootstrap }) },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    registry?.closeAllConnections();
    await new Promise((resolve) => registry?.close(resolve));
  });

  it('creates a domain expiry monitor and sees it up with the registration', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await chooseType(page, 'Domain expiry');
    await page.getByLabel('Name', { exact: true }).fill('Shop domain');
    const domain = page.getByLabel('Domain', { exact: true });
    await domain.fill('https://example.test');
    await domain.blur();
    await page.getByText('Enter a host name without scheme or port').waitFor();
    await domain.fill('www.example.test');
    const warn = page.getByLabel('Warn days before expiry');
    expect(await warn.inputValue()).toBe('30');
    expect(await page.getByLabel('Interval (seconds)').inputValue()).toBe('3600');
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('monitor-domain-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: 'Shop domain' }).waitFor();
    const panel = page.getByTestId('domain-registration-panel');
    await panel.waitFor({ timeout: 15_000 });
    await expect.poll(() => panel.textContent()).toContain('example.test');
    await expect.poll(() => panel.textContent()).toContain('Loopback Registrar Ltd');
    await expect.poll(() => panel.textContent()).toMatch(/(199|200) days left/);
    await shots(page, 'monitor-domain-page');

    await page.goto(`${app.url}/`);
    const row = page.getByTestId('monitor-row').filter({ hasText: 'Shop domain' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('up');
    await context.close();
  });

  it('creates a push monitor on a cron schedule in Berlin and shows the next expected ping', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await chooseType(page, 'Push');
    await page.getByLabel('Name', { exact: true }).fill('Nightly backup');
    await page.getByLabel('Pings expected').selectOption('cron');
    const expression = page.getByLabel('Cron expression');
    await expression.fill('30 26 * * *');
    await expression.blur();
    await page.getByText('The hour 26 is outside 0–23').waitFor();
    await expression.fill('30 2 * * *');
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.click();
    await zone.fill('Berlin');
    await page
      .getByRole('option', { name: /^Europe\/Berlin/ })
      .first()
      .click();
    await page.getByLabel('Grace period (seconds)').fill('900');
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await shots(page, 'monitor-push-cron-form');
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: 'Nightly backup' }).waitFor();
    await page.getByText('30 2 * * *').first().waitFor();
    await page.getByText('Europe/Berlin').first().waitFor();
    await page.getByText('Next ping expected').waitFor();
    await page.getByText('Not reported').waitFor();
    await shots(page, 'monitor-push-cron-page');

    // The edit form shows the schedule as saved.
    await page.goto(`${page.url()}/edit`);
    await page.getByRole('heading', { name: 'Edit monitor' }).waitFor();
    expect(await page.getByLabel('Cron expression').inputValue()).toBe('30 2 * * *');
    expect(await page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toMatch(
      /Europe\/Berlin|Europe\/Berlin/,
    );
    await context.close();
    expect(errors).toEqual([]);
  });
});
