import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigDocument } from '@pagewatch/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** Settings → Export in real Chromium: the configuration as a file, and the Git workflow. */
describe('the export screen in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let dir: string;

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: {
        type: 'http',
        name: 'Checkout',
        url: 'http://127.0.0.1:9/',
        headers: [{ name: 'Authorization', value: 'Bearer very-secret', secret: true }],
      },
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-e2e-export-'));
    browser = await launchBrowser();
    let context;
    ({ context, page } = await newPage(browser));
    await signIn(context, app.url, app.owner.email, app.owner.password);
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('downloads the configuration as YAML from the settings menu, secrets as references', async () => {
    await page.goto(`${app.url}/settings/account`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Export' })
      .click();
    await page.waitForURL(/\/settings\/export$/);
    await page.getByRole('heading', { name: 'Export', level: 2 }).waitFor();
    expect(await page.title()).toMatch(/^Export · Settings/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download YAML' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('pagewatch.yaml');
    const file = path.join(dir, 'pagewatch.yaml');
    await download.saveAs(file);
    const text = fs.readFileSync(file, 'utf8');
    const document = ConfigDocument.parse(parse(text));
    expect(document.monitors.map((m) => m.name)).toEqual(['Checkout']);
    expect(text).not.toContain('very-secret');
    expect(text).toMatch(/\$\{env:[A-Z0-9_]+\}/);
    expect(errors).toEqual([]);
  });

  it('shows the commands with this address, and what files manage', async () => {
    await page.getByText(`export PAGEWATCH_URL=${app.url}`).waitFor();
    await page.getByTestId('managed-now').getByText('Nothing yet').waitFor();
    await screenshotAll(page, 'settings-export');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    expect(errors).toEqual([]);
  });
});
