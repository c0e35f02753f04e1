import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBackupFile } from '../server/src/services/backup/read.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** Settings → Backups in real Chromium: download one, then set the schedule. */
describe('the backups screen in a browser', () => {
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
      payload: { type: 'http', name: 'Shop', url: 'http://127.0.0.1:9/' },
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-e2e-backups-'));
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

  it('downloads a whole backup from the settings menu and then shows it as the last one', async () => {
    await page.goto(`${app.url}/settings/account`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Backups' })
      .click();
    await page.waitForURL(/\/settings\/backups$/);
    await page.getByRole('heading', { name: 'Backups', level: 2 }).waitFor();
    expect(await page.title()).toMatch(/^Backups · Settings/);
    await page.getByTestId('last-backup').getByText('None yet').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download backup now' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^pagewatch-.*\.pagewatch-backup\.gz$/);
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const check = await verifyBackupFile(file);
    expect(check.header.engine).toBe('sqlite');

    await page
      .getByTestId('last-backup')
      .getByText(/^Downloaded, /)
      .waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
  });

  it('refuses a relative folder beside the field, then saves the schedule', async () => {
    await page.getByLabel('Back up on a schedule').check();
    const folder = page.getByLabel('Folder on the server');
    await folder.fill('backups');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Give an absolute path, e.g. /var/backups/pagewatch').waitFor();
    await folder.fill(dir);
    await page.getByLabel('Every').fill('12');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Schedule saved').waitFor();
    await page.getByText('Every 12 h, keeping 7').waitFor();
    await screenshotAll(page, 'settings-backups');
    expect(errors).toEqual([]);
  });

  it('fits a phone without scrolling sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.url}/settings/backups`);
    await page.getByText('Every 12 h, keeping 7').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
  });
});
