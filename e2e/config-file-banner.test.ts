import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { until } from '../server/test/support/until.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

const monitors = (port: string) => `version: 1
monitors:
  - key: db
    type: tcp
    name: Database
    host: 127.0.0.1
    port: ${port}
    paused: true
    channels: []
`;

/** PAGEWATCH_CONFIG that fails to apply shows admins a banner; a viewer sees none. */
describe('the configuration files banner, in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let dir: string;
  const status = async () =>
    (await app.inject('/api/v1/config/status')).json<{ ok: boolean | null }>();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-config-'));
    fs.writeFileSync(path.join(dir, 'monitors.yaml'), monitors('5432'));
    app = await startTestApp({
      engine: 'sqlite',
      listen: true,
      webDist,
      config: { configFile: { path: dir, prune: false, pollMs: 500 } },
    });
    await app.startRoles();
    await until('the first apply', async () => ((await status()).ok ? true : undefined));
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

  it('shows nothing while the files apply, the problem and its place once they do not', async () => {
    await page.goto(`${app.url}/`);
    await page.getByRole('link', { name: 'Database' }).first().waitFor();
    expect(await page.getByText('could not be applied').count()).toBe(0);

    // Line 7: a word where the port belongs.
    fs.writeFileSync(path.join(dir, 'monitors.yaml'), monitors('"not a port"'));
    await until('the bad edit to be read', async () =>
      (await status()).ok === false ? true : undefined,
    );
    await page.reload();
    await page.getByText('The configuration files could not be applied').waitFor();
    await page.getByText('monitors.yaml:7:11 monitors.0.port').waitFor();
    await screenshotAll(page, 'config-file-banner');

    fs.writeFileSync(path.join(dir, 'monitors.yaml'), monitors('5433'));
    await until('the fix to be applied', async () => ((await status()).ok ? true : undefined));
    await page.reload();
    await page.getByRole('link', { name: 'Database' }).first().waitFor();
    expect(await page.getByText('could not be applied').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('is not shown to a viewer', async () => {
    fs.writeFileSync(path.join(dir, 'monitors.yaml'), monitors('"still not a port"'));
    await until('the bad edit to be read', async () =>
      (await status()).ok === false ? true : undefined,
    );
    const viewer = await app.identity('viewer');
    const { context, page: theirs } = await newPage(browser);
    await signIn(context, app.url, viewer.email, viewer.password);
    await theirs.goto(`${app.url}/`);
    await theirs.getByRole('link', { name: 'Database' }).first().waitFor();
    expect(await theirs.getByText('could not be applied').count()).toBe(0);
    await context.close();
  });
});
