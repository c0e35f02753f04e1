import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { startTcpServer, type TcpServer } from '../server/test/fixtures/tcp-server.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/** A TCP monitor made in the form, checked against a real loopback listener, up on the dashboard. */
describe('a tcp monitor from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let listener: TcpServer;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  beforeAll(async () => {
    listener = await startTcpServer('echo');
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await listener?.close();
  });

  it('chooses TCP, validates host and port live, creates it and sees it up', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    const types = page.getByRole('radiogroup', { name: 'Monitor type' });
    await types.getByRole('radio', { name: 'TCP' }).click();
    await expect.poll(() => page.getByLabel('URL', { exact: true }).count()).toBe(0);
    await expect.poll(() => page.getByText('Request body').count()).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('Echo service');
    const host = page.getByLabel('Host', { exact: true });
    const port = page.getByLabel('Port', { exact: true });
    await host.fill('http://127.0.0.1');
    await port.fill('70000');
    await port.blur();
    await host.focus();
    await host.blur();
    await page.getByText('Ports are 1 to 65,535').waitFor();
    await page.getByText(/Enter a host name or IP address without scheme/).waitFor();
    await page.screenshot({ path: screenshotPath('monitor-tcp-form-errors'), fullPage: true });

    await host.fill('127.0.0.1');
    await port.fill(String(listener.port));
    await page.getByLabel(/Send after connecting/).fill('PING\\r\\n');
    await page.getByLabel(/Expect in the reply/).fill('PING');
    await page.getByLabel(/Degraded above/).fill('1000');
    await page.getByLabel('Interval (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('2');
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('monitor-tcp-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: 'Echo service' }).waitFor();
    await page.getByText(`127.0.0.1:${listener.port}`).first().waitFor();
    // What it sends (the settings) and, once checked, what came back (the banner assertion).
    await page.getByRole('code').filter({ hasText: 'PING\\r\\n' }).waitFor();
    await page.getByRole('cell', { name: 'PING\\r\\n' }).waitFor();
    await page.getByText('1,000 ms').waitFor();
    await page.screenshot({ path: screenshotPath('monitor-tcp-page'), fullPage: true });

    await page
      .getByRole('link', { name: /dashboard/i })
      .first()
      .click();
    const row = page.getByTestId('monitor-row').filter({ hasText: 'Echo service' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('up');
    await expect.poll(() => row.textContent()).toContain(`127.0.0.1:${listener.port}`);
    await page.screenshot({ path: screenshotPath('dashboard-tcp-up'), fullPage: true });
    expect(listener.received.some((b) => b.toString('latin1') === 'PING\r\n')).toBe(true);

    // Editing keeps the type: no type choice, the TCP fields filled in.
    await row.getByRole('link').first().click();
    await page.getByRole('link', { name: /edit/i }).first().click();
    await page.getByRole('heading', { name: 'Edit monitor' }).waitFor();
    expect(await page.getByRole('radiogroup', { name: 'Monitor type' }).count()).toBe(0);
    expect(await page.getByLabel('Port', { exact: true }).inputValue()).toBe(String(listener.port));
    await context.close();
  });

  it('fits the TCP form on a phone', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/monitors/new`);
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: 'TCP' })
      .click();
    await page.getByLabel('Port', { exact: true }).fill('0');
    await page.getByLabel('Host', { exact: true }).fill('db.example.com');
    await page.getByText('Ports are 1 to 65,535').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath('monitor-tcp-form-phone'), fullPage: true });
    await context.close();
    expect(errors).toEqual([]);
  });
});
