import fs from 'node:fs';
import path from 'node:path';
import { IncidentDetail } from '@pagewatch/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const DAY = 86_400_000;
const LONG = { timeout: 20_000 };
/** A local calendar day as a date input holds it (the browser runs in this machine's zone). */
const localDay = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

/** Searching and filtering the incidents list, and resolving several at once, in Chromium. */
describe('incidents list filters and bulk resolve', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  const errors: string[] = [];
  // Incidents start when the app's clock says: days back, so the date range has work to do.
  let offset = 0;
  const ids: Record<string, number> = {};
  const base = Date.now();

  beforeAll(async () => {
    app = await startTestApp({
      engine: 'sqlite',
      listen: true,
      webDist,
      clock: { now: () => Date.now() + offset },
    });
    const m = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'Checkout API', paused: true }),
    });
    const monitorId = m.json<{ id: number }>().id;
    const made = [
      ['Checkout slow', 10, 'investigating', [monitorId]],
      ['Login down', 5, 'identified', []],
      ['Search stale', 2, 'investigating', []],
      ['DNS hiccup', 1, 'investigating', []],
    ] as const;
    for (const [title, daysAgo, state, monitorIds] of made) {
      offset = -daysAgo * DAY;
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/incidents',
        payload: { title, message: 'Looking into it', state, monitorIds },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids[title] = res.json<{ id: number }>().id;
    }
    offset = 0;
    const resolved = await app.inject({
      method: 'POST',
      url: `/api/v1/incidents/${ids['DNS hiccup']}/updates`,
      payload: { state: 'resolved', message: 'Gone' },
    });
    expect(resolved.statusCode).toBe(201);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const titles = () => page.getByTestId('incident-row').locator('.irow__title').allTextContents();

  it('searches, filters by state, monitor and dates, with the filters in the URL', async () => {
    await page.goto(`${app.url}/incidents`);
    await expect.poll(titles, LONG).toHaveLength(4);
    await page.getByRole('searchbox', { name: 'Search incidents' }).fill('LOGIN');
    await expect.poll(titles, LONG).toEqual(['Login down']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('LOGIN');
    await page.getByRole('searchbox', { name: 'Search incidents' }).fill('');

    await page.getByLabel('State', { exact: true }).selectOption('identified');
    await expect.poll(titles, LONG).toEqual(['Login down']);
    await page.getByLabel('State', { exact: true }).selectOption('all');

    await page.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Checkout API' });
    await expect.poll(titles, LONG).toEqual(['Checkout slow']);
    await page.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Any monitor' });

    await page.getByLabel('From', { exact: true }).fill(localDay(base - 6 * DAY));
    await expect.poll(titles, LONG).toEqual(['Search stale', 'Login down', 'DNS hiccup']);
    await page.getByLabel('To', { exact: true }).fill(localDay(base - 3 * DAY));
    await expect.poll(titles, LONG).toEqual(['Login down']);
    await page.screenshot({ path: screenshotPath('incidents-filtered') });
    // Reloaded, the URL brings the same view back.
    await page.reload();
    await expect.poll(titles, LONG).toEqual(['Login down']);
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(
      localDay(base - 3 * DAY),
    );
    expect(errors).toEqual([]);
  });

  it('resolves the ticked incidents, naming one deleted meanwhile', async () => {
    await page.goto(`${app.url}/incidents?state=open`);
    await expect.poll(titles, LONG).toHaveLength(3);
    await page.getByRole('checkbox', { name: 'Select Checkout slow' }).check();
    await page.getByRole('checkbox', { name: 'Select Search stale' }).check();
    const gone = await app.inject({
      method: 'DELETE',
      url: `/api/v1/incidents/${ids['Search stale']}`,
    });
    expect(gone.statusCode).toBe(204);
    await page.getByRole('button', { name: 'Resolve…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Closing update').fill('Fixed by the rollback.');
    await dialog.getByRole('button', { name: 'Resolve incidents' }).click();
    const outcome = page.getByRole('status').filter({ hasText: 'Resolved 1 incident.' });
    await expect.poll(() => outcome.count(), LONG).toBe(1);
    expect(await outcome.textContent()).toContain('deleted by someone else meanwhile');
    await expect.poll(titles, LONG).toEqual(['Login down']);
    const checkout = IncidentDetail.parse(
      (await app.inject(`/api/v1/incidents/${ids['Checkout slow']}`)).json(),
    );
    expect(checkout.state).toBe('resolved');
    expect(checkout.updates[0]!.message).toBe('Fixed by the rollback.');
    expect(errors).toEqual([]);
  });

  it('screens: filters and selection at desktop and phone size, light and dark', async () => {
    const dir = '/tmp/shots-helper-bulk';
    fs.mkdirSync(dir, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [label, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        const ctx = await browser.newContext({ viewport, colorScheme });
        await signIn(ctx, app.url, app.owner.email, app.owner.password);
        const p = await ctx.newPage();
        await p.goto(`${app.url}/incidents?q=o`);
        await p.getByTestId('incident-row').first().waitFor();
        await p.getByRole('checkbox', { name: 'Select Login down' }).check();
        const file = path.join(dir, `incidents-${label}-${colorScheme}.png`);
        await p.screenshot({ path: file, fullPage: true });
        await ctx.close();
        expect(fs.existsSync(file)).toBe(true);
      }
    }
  }, 120_000);
});
