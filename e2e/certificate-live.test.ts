import { once } from 'node:events';
import https from 'node:https';
import type net from 'node:net';
import { X509Certificate } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { testCertificates, type TestCertificates } from '../server/test/fixtures/certs.js';
import { postgresUrl } from '../server/test/support/engines.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/**
 * Issue 17 item 10: the certificate panel shows the certificate of the latest check. A real
 * HTTPS peer on loopback swaps its certificate between checks; the open monitor page follows
 * it through the live events, without a reload.
 */
describe('the certificate panel follows the latest check', () => {
  let browser: Browser;
  let app: TestApp;
  let certs: TestCertificates;
  let server: https.Server;
  let page: Page;
  const sockets = new Set<net.Socket>();
  const errors: string[] = [];

  beforeAll(async () => {
    certs = testCertificates();
    server = https.createServer({ ...certs.trusted, keepAlive: false }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
      res.end('ok');
    });
    server.on('connection', (s: net.Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    app = await startTestApp({
      engine: 'sqlite',
      scheduler: true,
      listen: true,
      webDist,
      checks: { extraCa: [certs.ca] },
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    for (const s of sockets) s.destroy();
    server?.close();
  });

  const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

  it('shows the new certificate when the next check meets it, live', async () => {
    const port = (server.address() as net.AddressInfo).port;
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: app.owner.headers,
      payload: {
        type: 'http',
        name: 'Rotating certificate',
        url: `https://127.0.0.1:${port}/`,
        interval: 10,
        timeout: 3,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;

    await page.goto(`${app.url}/monitors/${id}`);
    await page.evaluate(
      () => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true),
    );
    const panel = page.getByTestId('certificate-panel');
    await panel.waitFor({ timeout: 15_000 });
    await expect.poll(() => panel.textContent()).toContain(fingerprint(certs.trusted.cert));
    await expect.poll(() => panel.getByTestId('cert-days').textContent()).toMatch(/days left/);

    // The peer renews (here: to a certificate that ends in three days) between two checks.
    server.setSecureContext(certs.expiringSoon);
    await expect
      .poll(() => panel.textContent(), { timeout: 25_000, interval: 250 })
      .toContain(fingerprint(certs.expiringSoon.cert));
    expect(await panel.textContent()).not.toContain(fingerprint(certs.trusted.cert));
    expect(await panel.getByTestId('cert-days').textContent()).toBe('3 days left');
    await page.screenshot({ path: screenshotPath('certificate-live'), fullPage: true });

    // Then to one nobody vouches for: the check goes down, the panel says why and shows it.
    server.setSecureContext(certs.selfSigned);
    await expect
      .poll(() => panel.textContent(), { timeout: 25_000, interval: 250 })
      .toContain(fingerprint(certs.selfSigned.cert));
    expect(await panel.textContent()).toContain('Not trusted');

    // Followed through the live events, not a reload of the page.
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it('does the same for a TLS monitor', async () => {
    server.setSecureContext(certs.trusted);
    const port = (server.address() as net.AddressInfo).port;
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: app.owner.headers,
      payload: {
        type: 'tls',
        name: 'Rotating TLS',
        host: '127.0.0.1',
        port,
        interval: 10,
        timeout: 3,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    await page.goto(`${app.url}/monitors/${id}`);
    const panel = page.getByTestId('certificate-panel');
    await expect
      .poll(() => panel.textContent(), { timeout: 15_000 })
      .toContain(fingerprint(certs.trusted.cert));
    server.setSecureContext(certs.expiringSoon);
    await expect
      .poll(() => panel.textContent(), { timeout: 25_000, interval: 250 })
      .toContain(fingerprint(certs.expiringSoon.cert));
    expect(await panel.getByTestId('cert-days').textContent()).toBe('3 days left');
    expect(errors).toEqual([]);
  }, 60_000);
});

/**
 * The same on PostgreSQL with the checks run by another process: results reach the web
 * process over NOTIFY without their details (too big to carry), and the page must still
 * follow the latest check instead of losing its certificate panel.
 */
describe.runIf(postgresUrl)('the certificate panel with checks in another process', () => {
  let browser: Browser;
  let web: TestApp;
  let scheduler: TestApp;
  let certs: TestCertificates;
  let server: https.Server;
  const sockets = new Set<net.Socket>();
  const errors: string[] = [];

  beforeAll(async () => {
    certs = testCertificates();
    server = https.createServer(certs.trusted, (_req, res) => {
      res.writeHead(200, { connection: 'close' });
      res.end('ok');
    });
    server.on('connection', (s: net.Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    web = await startTestApp({ engine: 'postgres', listen: true, webDist });
    scheduler = await startTestApp({
      engine: 'postgres',
      sharing: web,
      scheduler: true,
      config: { roles: ['scheduler'] },
      checks: { extraCa: [certs.ca] },
    });
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await scheduler?.stop();
    await web?.stop();
    for (const s of sockets) s.destroy();
    server?.close();
  });

  it('shows the certificate of the check another process ran, and its successor', async () => {
    const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;
    const port = (server.address() as net.AddressInfo).port;
    const created = await web.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: web.owner.headers,
      payload: {
        type: 'http',
        name: 'Rotating elsewhere',
        url: `https://127.0.0.1:${port}/`,
        interval: 10,
        timeout: 3,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, web.url, web.owner.email, web.owner.password);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${web.url}/monitors/${id}`);
    const panel = page.getByTestId('certificate-panel');
    await expect
      .poll(() => panel.textContent(), { timeout: 20_000, interval: 250 })
      .toContain(fingerprint(certs.trusted.cert));
    // A few live results later the panel is still there, showing the certificate seen last.
    server.setSecureContext(certs.expiringSoon);
    await expect
      .poll(() => panel.textContent(), { timeout: 25_000, interval: 250 })
      .toContain(fingerprint(certs.expiringSoon.cert));
    expect(await panel.getByTestId('cert-days').textContent()).toBe('3 days left');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
