import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { testCertificates } from '../server/test/fixtures/certs.js';
import { startDnsServer, type DnsServer } from '../server/test/fixtures/dns-server.js';
import { startTlsServer, type TlsServer } from '../server/test/fixtures/tls-server.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/**
 * DNS and TLS monitors made in the form, checked against a loopback DNS server and a loopback
 * TLS listener whose certificate chains to the test CA the engine is given, up on the dashboard.
 */
describe('dns and tls monitors from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let dns: DnsServer;
  let tls: TlsServer;
  const errors: string[] = [];
  const created: { dns?: string; tls?: string } = {};

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  async function chooseType(page: Page, label: 'DNS' | 'TLS'): Promise<void> {
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: label })
      .click();
  }

  async function schedule(page: Page): Promise<void> {
    await page.getByLabel('Interval (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('2');
  }

  beforeAll(async () => {
    const certs = testCertificates();
    dns = await startDnsServer({}, { 'status.test': { A: ['127.0.0.1', '127.0.0.2'] } });
    tls = await startTlsServer(certs.trusted);
    app = await startTestApp({
      engine: 'sqlite',
      scheduler: true,
      listen: true,
      webDist,
      checks: { extraCa: [certs.ca] },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await tls?.close();
    await dns?.close();
  });

  it('creates a DNS monitor with expected values, explains a wrong value, sees it up', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await chooseType(page, 'DNS');
    await expect.poll(() => page.getByLabel('URL', { exact: true }).count()).toBe(0);
    await expect.poll(() => page.getByLabel('Port', { exact: true }).count()).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('Status name');
    await page.getByLabel('Record', { exact: true }).selectOption('A');
    const host = page.getByLabel('Host name', { exact: true });
    await host.fill('127.0.0.1');
    await host.blur();
    await page.getByText('Enter a host name without scheme or port').waitFor();
    await host.fill('status.test');
    await page.getByLabel(/DNS server/).fill(dns.address);
    const expected = page.getByRole('textbox', { name: /Expected values/ });
    await expected.fill('127.0.0.1\n::1');
    await expected.blur();
    await page.getByText('“::1”: A records are IPv4 addresses, e.g. 10.0.0.5').waitFor();
    await page.screenshot({ path: screenshotPath('monitor-dns-form-errors'), fullPage: true });

    await expected.fill('127.0.0.1\n127.0.0.2');
    await page
      .getByRole('radiogroup', { name: 'Which values must be in the answer' })
      .getByRole('radio', { name: 'All of them' })
      .click();
    await schedule(page);
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('monitor-dns-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    created.dns = page.url();
    await page.getByRole('heading', { name: 'Status name' }).waitFor();
    const question = `A status.test @ ${dns.address}`;
    await page.getByText(question).first().waitFor();
    // The settings row; the last check's assertion results say "all of …" too.
    await page.getByText(/^All of /).waitFor();
    await page.screenshot({ path: screenshotPath('monitor-dns-page'), fullPage: true });

    await page.goto(`${app.url}/`);
    const row = page.getByTestId('monitor-row').filter({ hasText: 'Status name' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('up');
    await expect.poll(() => row.textContent()).toContain(question);
    expect(dns.queries).toContain('status.test 1');

    // Editing keeps the type and shows the values one per line.
    await page.goto(`${created.dns}/edit`);
    await page.getByRole('heading', { name: 'Edit monitor' }).waitFor();
    expect(await page.getByRole('textbox', { name: /Expected values/ }).inputValue()).toBe(
      '127.0.0.1\n127.0.0.2',
    );
    await context.close();
  });

  it('creates a TLS monitor against a loopback TLS listener and sees it up', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await chooseType(page, 'TLS');
    await page.getByLabel('Name', { exact: true }).fill('Loopback certificate');
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    const port = page.getByLabel('Port', { exact: true });
    expect(await port.getAttribute('placeholder')).toBe('443');
    const warn = page.getByLabel('Warn days before expiry');
    expect(await warn.inputValue()).toBe('14');
    await warn.fill('400');
    await warn.blur();
    await page.getByText('Warn at most 365 days ahead').waitFor();
    await warn.fill('21');
    await port.fill(String(tls.port));
    await page.getByLabel(/Accept certificates from any issuer/).check();
    await page.getByText('Who issued the certificate will not be checked').waitFor();
    await page.getByLabel(/Accept certificates from any issuer/).uncheck();
    await schedule(page);
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('monitor-tls-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    created.tls = page.url();
    await page.getByRole('heading', { name: 'Loopback certificate' }).waitFor();
    await page.getByText(`127.0.0.1:${tls.port}`).first().waitFor();
    await page.getByText('21 days before expiry').waitFor();

    await page.goto(`${app.url}/`);
    const row = page.getByTestId('monitor-row').filter({ hasText: 'Loopback certificate' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('up');
    await expect.poll(() => row.textContent()).toContain(`127.0.0.1:${tls.port}`);
    await page.screenshot({ path: screenshotPath('dashboard-dns-tls-up'), fullPage: true });

    await page.goto(created.tls);
    await page.getByRole('heading', { name: 'Loopback certificate' }).waitFor();
    await page.screenshot({ path: screenshotPath('monitor-tls-page'), fullPage: true });
    await context.close();
  });

  it('fits both forms and both monitor pages on a phone, in the dark theme too', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      colorScheme: 'dark',
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );

    await chooseType(page, 'DNS');
    await page.getByLabel('Record', { exact: true }).selectOption('CAA');
    await page.getByText('CAA is flags, tag and value').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath('monitor-dns-form-phone'), fullPage: true });

    await chooseType(page, 'TLS');
    await page.getByLabel('Host', { exact: true }).fill('shop.example.com');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath('monitor-tls-form-phone'), fullPage: true });

    for (const [name, url] of Object.entries(created)) {
      await page.goto(url);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await overflow(), name).toBeLessThanOrEqual(0);
      await page.screenshot({ path: screenshotPath(`monitor-${name}-page-phone`), fullPage: true });
    }
    await context.close();
    expect(errors).toEqual([]);
  });
});
