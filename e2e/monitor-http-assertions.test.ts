import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetServer, type TargetServer } from '../server/test/fixtures/target-server.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/**
 * An HTTPS monitor with a bearer token and a JSON assertion that fails, made in the form and
 * checked against a real loopback server behind a private CA: the monitor page shows expected
 * against actual and the certificate, and the token never comes back.
 */
describe('an HTTP monitor with assertions', () => {
  let browser: Browser;
  let app: TestApp;
  let target: TargetServer;

  beforeAll(async () => {
    target = await startTargetServer({ tls: 'trusted' });
    app = await startTestApp({
      engine: 'sqlite',
      scheduler: true,
      listen: true,
      webDist,
      checks: { extraCa: target.ca === undefined ? [] : [target.ca] },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await target?.close();
  });

  it('creates one whose JSON assertion fails, showing expected vs actual and the certificate', async () => {
    const { context, page } = await newPage(browser);
    const errors = watchErrors(page);
    await signIn(context, app.url, app.owner.email, app.owner.password);
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Echo API');
    await page.getByLabel('URL', { exact: true }).fill(`https://localhost:${target.port}/echo`);
    await page.getByLabel('Authentication').selectOption('bearer');
    await page.getByLabel('Token').fill('tok-e2e-secret');
    await page.getByRole('button', { name: 'Add assertion' }).click();
    await page.getByLabel('Assertion 1', { exact: true }).selectOption('json');
    const path = page.getByLabel('JSON path');
    await path.fill('method');
    await path.blur();
    await page.getByText(/Use \$ then \.name/).waitFor();
    await page.getByText(/The body must be JSON/).waitFor();
    await path.fill('$.method');
    await page.getByLabel('Value', { exact: true }).fill('"POST"');
    await page.getByRole('button', { name: 'Add assertion' }).click();
    await page.getByLabel('Assertion 2', { exact: true }).selectOption('latency');
    await page.getByRole('button', { name: 'Move assertion 2 up' }).click();
    await expect
      .poll(() => page.getByLabel('Assertion 1', { exact: true }).inputValue())
      .toBe('latency');
    await page.getByLabel('Ignore TLS certificate errors').check();
    await page.getByText('Certificate problems will not be reported').waitFor();
    await screenshotAll(page, 'monitor-http-form');
    await page.getByLabel('Ignore TLS certificate errors').uncheck();
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Create monitor' }).click();

    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: 'Echo API' }).waitFor();
    const failed = page.getByTestId('assertion-result').filter({ hasText: '$.method' });
    await failed.waitFor({ timeout: 15_000 });
    expect(await failed.getAttribute('data-passed')).toBe('false');
    expect(await failed.textContent()).toContain('equals "POST"');
    expect(await failed.textContent()).toContain('"GET"');
    const status = page.getByTestId('assertion-result').filter({ hasText: 'status code' });
    expect(await status.getAttribute('data-passed')).toBe('true');
    await page
      .getByTestId('check-row')
      .getByText('JSON $.method: expected equals "POST", got "GET"')
      .waitFor();

    const cert = page.getByTestId('certificate-panel');
    await cert.getByText('Pagewatch Test CA').waitFor();
    await cert.getByText('Trusted').waitFor();
    await cert.getByText('DNS:localhost').waitFor();
    expect(await cert.getByTestId('cert-days').textContent()).toMatch(/\d+ days left/);
    await page.getByText('Bearer token, saved').waitFor();
    expect(target.requests.at(-1)?.headers.authorization).toBe('Bearer tok-e2e-secret');
    expect(await page.content()).not.toContain('tok-e2e-secret');
    await screenshotAll(page, 'monitor-http-page');

    // Editing keeps the token when its field is left empty.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByText('Saved — leave empty to keep the saved token.').waitFor();
    expect(await page.getByLabel('Token').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByText('Bearer token, saved').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
