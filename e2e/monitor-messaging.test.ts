import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCertificates } from '../server/test/fixtures/certs.js';
import { startGreeter, type Greeter } from '../server/test/fixtures/mail-greeters.js';
import { startMqttBroker, type MqttBroker } from '../server/test/fixtures/mqtt-broker.js';
import { refusedPort } from '../server/test/fixtures/target-server.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const amqpUrl = process.env.PAGEWATCH_TEST_AMQP_URL
  ? new URL(process.env.PAGEWATCH_TEST_AMQP_URL)
  : null;

/**
 * One monitor of each messaging type made in the form: MQTT against an aedes broker the test
 * starts with a login (the form's password must reach the check) and a retained message,
 * RabbitMQ against the real broker when named (else a refused port, so it is down), SMTP
 * against smtp-server with STARTTLS and the test CA's certificate (any issuer accepted), IMAP
 * against a tiny greeter speaking the greeting and STARTTLS.
 */
describe('MQTT, RabbitMQ, SMTP and IMAP monitors from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let broker: MqttBroker;
  let smtp: SMTPServer;
  let smtpPort: number;
  let imap: Greeter;
  let nobody: number;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  beforeAll(async () => {
    const certs = testCertificates();
    broker = await startMqttBroker({
      credentials: { username: 'watcher', password: 'mq-form-pw' },
    });
    await broker.publish('plant/boiler/status', 'boiler online', true);
    smtp = new SMTPServer({
      name: 'mx.test',
      logger: false,
      key: certs.trusted.key,
      cert: certs.trusted.cert,
      onData: (_s, _session, done) => done(new Error('No mail here')),
    });
    smtp.on('error', () => undefined);
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    nobody = await refusedPort();
    imap = await startGreeter('imap', certs.trusted);
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await broker?.close();
    await imap?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  async function start(page: Page, label: string, name: string, host: string, port: number) {
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: label, exact: true })
      .click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Host', { exact: true }).fill(host);
    await page.getByLabel('Port', { exact: true }).fill(String(port));
    await page.getByLabel('Interval (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('3');
  }

  async function save(page: Page, name: string, target: string, shot: string) {
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath(shot), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name }).waitFor();
    await page.getByText(target).first().waitFor();
  }

  it('creates an MQTT, a RabbitMQ, an SMTP and an IMAP monitor that check their peers', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);

    // The inline rule for a round trip: the probe cannot go to a wildcard topic.
    await start(page, 'MQTT', 'Boiler status', '127.0.0.1', broker.port);
    await page.getByLabel('Check', { exact: true }).selectOption('roundtrip');
    const topic = page.getByLabel(/^Topic/);
    await topic.fill('plant/#');
    await topic.blur();
    await page.getByText(/cannot hold the wildcards \+ or #/).waitFor();

    await page.getByLabel('Check', { exact: true }).selectOption('subscribe');
    await topic.fill('plant/boiler/status');
    await page.getByLabel(/^User name/).fill('watcher');
    await page.getByLabel(/^Password/).fill('mq-form-pw');
    await page.getByLabel(/^Text/).fill('online');
    await save(
      page,
      'Boiler status',
      `mqtt://127.0.0.1:${broker.port} plant/boiler/status`,
      'monitor-mqtt-form',
    );
    await page.getByText('User “watcher”, password saved').waitFor();
    await page.screenshot({ path: screenshotPath('monitor-mqtt-page'), fullPage: true });

    const rabbitPort = amqpUrl ? Number(amqpUrl.port || 5672) : nobody;
    await start(page, 'RabbitMQ', 'Orders broker', amqpUrl?.hostname ?? '127.0.0.1', rabbitPort);
    await page
      .getByLabel(/^User name/)
      .fill(amqpUrl ? decodeURIComponent(amqpUrl.username) : 'guest');
    await page
      .getByLabel(/^Password/)
      .fill(amqpUrl ? decodeURIComponent(amqpUrl.password) : 'guest');
    await save(page, 'Orders broker', `:${rabbitPort}`, 'monitor-amqp-form');

    await start(page, 'SMTP', 'Mail relay', '127.0.0.1', smtpPort);
    await page.getByLabel(/^Required capabilities/).fill('AUTH, 8BITMIME');
    await page.getByLabel(/Accept certificates from any issuer/).check();
    await save(page, 'Mail relay', `smtp://127.0.0.1:${smtpPort}`, 'monitor-smtp-form');
    await page.screenshot({ path: screenshotPath('monitor-smtp-page'), fullPage: true });

    await start(page, 'IMAP', 'Mailboxes', '127.0.0.1', imap.port);
    await page.getByLabel(/Accept certificates from any issuer/).check();
    await save(page, 'Mailboxes', `imap://127.0.0.1:${imap.port}`, 'monitor-imap-form');

    await page.goto(`${app.url}/`);
    const expected: [string, string][] = [
      ['Boiler status', 'up'],
      ['Orders broker', amqpUrl ? 'up' : 'down'],
      ['Mail relay', 'up'],
      ['Mailboxes', 'up'],
    ];
    for (const [name, status] of expected) {
      const row = page.getByTestId('monitor-row').filter({ hasText: name });
      await expect
        .poll(() => row.getAttribute('data-status'), { timeout: 20_000, message: name })
        .toBe(status);
    }
    await page.screenshot({ path: screenshotPath('dashboard-messaging'), fullPage: true });

    // The saved password is never shown again; the form says it is kept.
    await page
      .getByTestId('monitor-row')
      .filter({ hasText: 'Boiler status' })
      .getByRole('link')
      .first()
      .click();
    await page.getByRole('link', { name: /edit/i }).first().click();
    await page.getByRole('heading', { name: 'Edit monitor' }).waitFor();
    expect(await page.getByLabel(/^Password/).inputValue()).toBe('');
    await page.getByText('Saved — leave empty to keep the saved password.').waitFor();
    expect(await page.content()).not.toContain('mq-form-pw');
    await context.close();
  });

  it('fits the SMTP and MQTT forms on a phone, in the dark theme too', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      colorScheme: 'dark',
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    for (const label of ['SMTP', 'MQTT']) {
      await page.goto(`${app.url}/monitors/new`);
      await page.getByRole('heading', { name: 'New monitor' }).waitFor();
      await page.screenshot({ path: screenshotPath('monitor-new-phone-dark'), fullPage: true });
      await page
        .getByRole('radiogroup', { name: 'Monitor type' })
        .getByRole('radio', { name: label, exact: true })
        .click();
      if (label === 'MQTT') {
        await page.getByLabel('Connect over TLS', { exact: false }).check();
        await page.getByLabel('Check', { exact: true }).selectOption('subscribe');
        await page.getByLabel('The message must').selectOption('json');
      }
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: screenshotPath(`monitor-${label.toLowerCase()}-form-phone-dark`),
        fullPage: true,
      });
    }
    await context.close();
    expect(errors).toEqual([]);
  });
});
