import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { toWrite, type GenCheck } from '../server/test/support/history.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { desktop, shootAll } from './support/screens.js';

const MIN = 60_000;

/**
 * Issue 20 item 5 in the browser: an editor sets a 99 % SLO on a monitor with an hour of
 * history (2 of 60 checks failed) and sees its budget on the SLOs screen and the monitor page.
 */
describe('SLOs in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let monitorId: number;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'Storefront' }),
    });
    monitorId = res.json<{ id: number }>().id;
    const start = Math.floor(Date.now() / MIN) * MIN - 60 * MIN;
    const checks: GenCheck[] = Array.from({ length: 60 }, (_, i) => ({
      monitorId,
      at: start + i * MIN + 5_000,
      outcome: i === 20 || i === 40 ? 'down' : 'up',
      latencyUs: i === 20 || i === 40 ? null : 120_000,
      phasesUs: { dns: null, connect: null, tls: null, ttfb: null, download: null },
    }));
    await repositories(app.database).results.writeBatch(checks.map(toWrite));
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Desktop and phone, light and dark: every screen is looked at in all four. */
  const shoot = (name: string) => shootAll(page, `slos-${name}`);

  it('creates an SLO and shows its error budget', async () => {
    await page.goto(`${app.url}/slos`);
    await page.getByRole('button', { name: 'New SLO' }).click();
    const form = page.getByRole('form', { name: 'New SLO' });
    await form.getByLabel('Name').fill('Storefront availability');
    await form.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Storefront' });
    await form.getByLabel('Target (%)').fill('99');
    await form.getByLabel('Window', { exact: true }).selectOption({ label: 'Rolling 30 days' });
    await form.getByLabel('Also a latency objective').check();
    await shoot('form');
    await form.getByRole('button', { name: 'Save SLO' }).click();
    const card = page.getByRole('listitem', { name: 'Storefront availability' });
    // 2 of 60 failed: 96.66 % attained; 30 days × 1 % = 7 h 12 min of budget, of which a 30th
    // of the time since the first check is spent. Burning 3.3× trips the 3-day ticket rule.
    await expect
      .poll(() => card.getByTestId('slo-attainment').textContent(), { timeout: 10_000 })
      .toContain('96.66%');
    expect(await card.getByTestId('slo-budget').textContent()).toMatch(
      /^99\.\d % left · 7 h \d+ min of 7 h 12 min$/,
    );
    expect(await card.getByTestId('slo-health').textContent()).toBe('At risk');
    await shoot('list');
    await page.goto(`${app.url}/monitors/${monitorId}`);
    const section = page.getByRole('region', { name: 'SLOs' });
    await expect
      .poll(() => section.getByTestId('slo-budget').textContent(), { timeout: 10_000 })
      .toContain('of 7 h 12 min');
    await section.scrollIntoViewIfNeeded();
    await shoot('monitor-card');
    expect(errors).toEqual([]);
  });
});
