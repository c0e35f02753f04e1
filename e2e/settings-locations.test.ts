import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, repoRoot, signIn, webDist } from './support/browser.js';

/** Settings → Locations in real Chromium, with a real probe process reporting to the server. */
describe('the locations screen in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let probe: ChildProcess | null = null;
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-e2e-probe-'));

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    const loc = await app.inject({
      method: 'POST',
      url: '/api/v1/locations',
      payload: { name: 'Frankfurt', region: 'eu-central-1' },
    });
    const made = await app.inject({
      method: 'POST',
      url: `/api/v1/locations/${loc.json().id}/probes`,
      payload: { name: 'fra-1' },
    });
    // A probe whose clock is 3.5 s fast: its row shows the offset as a warning.
    probe = spawn(
      process.execPath,
      [
        path.join(repoRoot, 'server/bin/pagewatch.mjs'),
        'probe',
        '--server',
        app.url,
        '--token',
        made.json().token,
        '--spool-dir',
        spool,
        '--clock-skew-ms',
        '3500',
      ],
      { stdio: 'ignore', env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() } },
    );
    browser = await launchBrowser();
    let context;
    ({ context, page } = await newPage(browser));
    await signIn(context, app.url, app.owner.email, app.owner.password);
    errors = watchErrors(page);
  }, 60_000);
  afterAll(async () => {
    probe?.kill('SIGKILL');
    await browser?.close();
    await app?.stop();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  it('shows the probe online with its clock warning, adds a location and a probe with its command', async () => {
    await page.goto(`${app.url}/settings/account`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Locations' })
      .click();
    await page.waitForURL(/\/settings\/locations$/);
    await page.getByRole('heading', { name: 'Locations' }).waitFor();
    const fra = page.getByRole('row', { name: /fra-1/ });
    await expect
      .poll(() => fra.innerText(), { timeout: 30_000 })
      .toMatch(/Online[\s\S]*\+3\.\d s \(check NTP\)/);

    await page.getByLabel('Name', { exact: true }).fill('Sydney');
    await page.getByLabel('Region').fill('ap-southeast-2');
    await page.getByRole('button', { name: 'Add location' }).click();
    await page.getByRole('heading', { name: /Sydney/ }).waitFor();
    await page.locator('#probe-sydney').fill('syd-1');
    await page.locator('#probe-sydney').press('Enter');
    const command = page.getByTestId('probe-command');
    await command.waitFor();
    expect(await command.innerText()).toMatch(
      /^npx pagewatch probe --server http:\/\/127\.0\.0\.1:\d+ --token pwp_\w{40}$/,
    );
    await screenshotAll(page, 'settings-locations');
    expect(errors).toEqual([]);
  }, 90_000);
});
