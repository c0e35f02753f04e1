import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { checkRun, monitorInput } from '../server/test/support/factories.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** Issue 17: the phases of a check add up to its total, or the rest shows as "Other". */
describe('phases of the last check in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    browser = await launchBrowser();
    let context;
    ({ context, page } = await newPage(browser));
    await signIn(context, app.url, app.owner.email, app.owner.password);
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function monitorWithLast(latencyMs: number) {
    const id = (
      await app.inject({ method: 'POST', url: '/api/v1/monitors', payload: monitorInput() })
    ).json<{ id: number }>().id;
    await repositories(app.database).results.writeBatch([
      {
        monitorId: id,
        at: Date.now() - 1000,
        run: checkRun({
          latencyMs,
          phases: { dns: 10, connect: 20, tls: 30, ttfb: 40, download: 5 },
        }),
        status: 'up',
        failures: 0,
        recent: [],
        flip: { from: 'pending', to: 'up' },
      },
    ]);
    return id;
  }

  it('shows the time no phase accounts for as Other, so the parts make the total', async () => {
    const id = await monitorWithLast(140);
    await page.goto(`${app.url}/monitors/${id}`);
    const list = page.getByLabel('Time per phase of the last check');
    await list.waitFor();
    await expect
      .poll(() => list.locator('.lastphases__item').allInnerTexts())
      .toEqual([
        'DNS\n10 ms',
        'Connect\n20 ms',
        'TLS\n30 ms',
        'First byte\n40 ms',
        'Download\n5.0 ms',
        'Other\n35 ms',
        'Total\n140 ms',
      ]);
    await screenshotAll(page, 'check-phases-other');
    expect(errors).toEqual([]);
  });

  it('shows no Other when the phases add up', async () => {
    const id = await monitorWithLast(105);
    await page.goto(`${app.url}/monitors/${id}`);
    const list = page.getByLabel('Time per phase of the last check');
    await list.getByText('Total').waitFor();
    expect(await list.getByText('Other').count()).toBe(0);
  });
});
