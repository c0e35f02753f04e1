import fs from 'node:fs';
import path from 'node:path';
import { Monitor } from '@pagewatch/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const COUNT = 2_000;
/** The machine is shared and busy: conditions are waited for, up to this long. */
const LONG = { timeout: 20_000 };
const name = (i: number) => `Site ${String(i).padStart(4, '0')}`;
/** Every fourth monitor is tagged `blue`: the filter of the bulk pause. */
const blue = (i: number) => i % 4 === 0;

/** Bulk actions, scroll restoration and clone on a dashboard of 2,000 monitors. */
describe('many monitors on the dashboard', () => {
  let browser: Browser;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    // Stored directly: here only the list's size matters.
    const repos = repositories(app.database);
    const at = Date.now();
    for (let i = 0; i < COUNT; i += 1) {
      await repos.monitors.insert(
        monitorInput({
          name: name(i),
          url: `http://127.0.0.1:9/${i}`,
          tags: blue(i) ? ['blue'] : ['green'],
          paused: false,
        }),
        at,
      );
    }
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // Which address failed, beside the console's bare "Failed to load resource".
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const rows = () => page.getByTestId('monitor-row');
  const api = async <T>(url: string): Promise<T> => (await app.inject(url)).json<T>();
  const pausedIds = async () =>
    (await app.database.db.selectFrom('monitors').select('id').where('paused', '=', 1).execute())
      .map((r) => r.id)
      .sort((a, b) => a - b);

  it('pauses every monitor matching a filter, most of them never loaded', async () => {
    await page.goto(`${app.url}/?tag=blue&sort=name`);
    await rows().first().waitFor();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    // Shift-click ticks a range: the first row, then the fifth with shift.
    await rows().nth(0).getByRole('checkbox').click();
    await rows()
      .nth(4)
      .getByRole('checkbox')
      .click({ modifiers: ['Shift'] });
    await expect.poll(() => bar.textContent(), LONG).toContain('5 selected');
    await page.screenshot({ path: screenshotPath('bulk-range-selected') });
    await bar.getByRole('button', { name: 'Select all 500 matching this filter' }).click();
    await expect.poll(() => bar.textContent(), LONG).toContain('All 500 selected');
    // The header box reads "all loaded" now; fewer than 500 rows ever reached the browser.
    expect(await rows().count()).toBeLessThan(100);
    await bar.getByRole('button', { name: 'Pause' }).click();
    await expect
      .poll(
        () => page.getByRole('status').filter({ hasText: 'Paused 500 monitors.' }).count(),
        LONG,
      )
      .toBe(1);
    const paused = await pausedIds();
    expect(paused).toHaveLength(500);
    const tags = await app.database.db
      .selectFrom('monitors')
      .select('tags')
      .where('id', 'in', paused)
      .execute();
    expect(tags.every((t) => t.tags === '["blue"]')).toBe(true);
    expect(errors).toEqual([]);
  });

  it('says which monitors someone else deleted meanwhile and acts on the rest', async () => {
    await page.goto(`${app.url}/?tag=green&sort=name`);
    await rows().first().waitFor();
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(Number(await rows().nth(i).getAttribute('data-monitor-id')));
      await rows().nth(i).getByRole('checkbox').click();
    }
    const gone = ids[1]!;
    const del = await app.inject({ method: 'DELETE', url: `/api/v1/monitors/${gone}` });
    expect(del.statusCode).toBe(204);
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await bar.getByRole('button', { name: 'Tag…', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Tags').fill('batch-7');
    await dialog.getByRole('button', { name: 'Add tags' }).click();
    const note = page.getByTestId('bulk-not-found');
    await note.waitFor();
    expect(await note.textContent()).toContain(`id ${gone}`);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Tagged 2 monitors.' }).count(), LONG)
      .toBe(1);
    await page.screenshot({ path: screenshotPath('bulk-partial-result') });
    for (const id of [ids[0]!, ids[2]!]) {
      expect(Monitor.parse(await api(`/api/v1/monitors/${id}`)).tags).toEqual(['green', 'batch-7']);
    }
  });

  it(
    'comes back from a monitor to the same filters and scroll position',
    { timeout: 180_000 },
    async () => {
      await page.goto(`${app.url}/?tag=green&sort=name`);
      await rows().first().waitFor();
      // Far down the list: several pages loaded on the way.
      await page.mouse.move(640, 400);
      // Each poll wheels on: on a loaded machine one wheel can land before the next page
      // has given the list its height, and a single wheel would then stop short of it.
      for (let i = 0; i < 6; i += 1) {
        await expect
          .poll(async () => {
            await page.mouse.wheel(0, 2_000);
            return Number(await rows().last().getAttribute('data-index'));
          }, LONG)
          .toBeGreaterThan(60 * (i + 1));
      }
      await expect.poll(() => page.evaluate(() => window.scrollY), LONG).toBeGreaterThan(15_000);
      // The last wheels may still be scrolling: a row picked meanwhile can leave the screen,
      // and the list unmounts rows off screen. Pick once the page has stopped.
      let last = -1;
      await expect
        .poll(async () => {
          const now = await page.evaluate(() => window.scrollY);
          const still = now === last;
          last = now;
          return still;
        }, LONG)
        .toBe(true);
      const y = await page.evaluate(() => window.scrollY);
      // The row nearest the middle of the screen, which is opened and must be there again after.
      const picked = await page.evaluate(() => {
        const el = document.elementFromPoint(640, 400)?.closest('[data-testid="monitor-row"]');
        const id = el?.getAttribute('data-monitor-id');
        return id ? { id, label: el!.querySelector('a.mrow__name')?.textContent ?? '' } : null;
      });
      expect(picked).not.toBeNull();
      const { id: target, label } = picked!;
      const link = page.locator(`[data-monitor-id="${target}"] a.mrow__name`);
      await link.click();
      await page.waitForURL(`**/monitors/${target}`);
      await page.getByRole('heading', { level: 1, name: label }).waitFor();

      // The browser's back button: the same filters, and the opened row on screen again.
      const onScreen = async () => {
        const box = await page.locator(`[data-monitor-id="${target}"]`).boundingBox();
        return box !== null && box.y >= 0 && box.y + box.height <= 800;
      };
      await page.goBack();
      await page.waitForURL('**/?tag=green&sort=name');
      await expect.poll(onScreen, LONG).toBe(true);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(y / 2);
      // The filters and the column headers stayed in reach, stuck under the top bar.
      expect(await page.locator('#monitor-search').isVisible()).toBe(true);
      expect(
        await page.getByRole('columnheader', { name: 'Monitor', exact: true }).isVisible(),
      ).toBe(true);
      await page.screenshot({ path: screenshotPath('bulk-scroll-restored') });

      // The page's own "Monitors" link keeps the filters and the place too.
      await link.click();
      await page.waitForURL(`**/monitors/${target}`);
      await page.locator('a.back-link').click();
      await page.waitForURL('**/?tag=green&sort=name');
      await expect.poll(onScreen, LONG).toBe(true);
      expect(errors).toEqual([]);
    },
  );

  it('clones a monitor with its token copied on the server, never shown', async () => {
    const token = 'clone-e2e-token-never-in-the-browser';
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(
        monitorInput({ name: 'Billing API', auth: { kind: 'bearer', token }, paused: true }),
      ),
    });
    expect(created.statusCode).toBe(201);
    const source = Monitor.parse(created.json());
    const bodies: string[] = [];
    const listen = (res: { url(): string; text(): Promise<string> }) => {
      if (new URL(res.url()).pathname.startsWith('/api/'))
        res.text().then(
          (t) => bodies.push(t),
          () => undefined,
        );
    };
    page.on('response', listen);
    await page.goto(`${app.url}/monitors/${source.id}`);
    await page.getByRole('link', { name: 'Clone' }).click();
    await page.waitForURL(`**/monitors/${source.id}/clone`);
    const nameField = page.getByLabel('Name', { exact: true });
    await expect.poll(() => nameField.inputValue(), LONG).toBe('Billing API (copy)');
    await page.screenshot({ path: screenshotPath('clone-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(
      (url) => /\/monitors\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${source.id}`),
    );
    const copyId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { level: 1, name: 'Billing API (copy)' }).waitFor();
    page.off('response', listen);
    const copy = Monitor.parse(await api(`/api/v1/monitors/${copyId}`));
    expect(copy).toMatchObject({
      name: 'Billing API (copy)',
      auth: { kind: 'bearer', hasSecret: true },
    });
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.some((b) => b.includes(token))).toBe(false);
    expect(errors).toEqual([]);
  });

  it('screens: the bulk bar and its dialogs at desktop and phone size, light and dark', async () => {
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
        await p.goto(`${app.url}/?tag=green`);
        const list = p.getByTestId('monitor-row');
        await list.first().waitFor();
        await list.nth(1).getByRole('checkbox').click();
        await list.nth(2).getByRole('checkbox').click();
        await p.screenshot({
          path: path.join(dir, `dashboard-selected-${label}-${colorScheme}.png`),
        });
        // Every action in sight: the bar's buttons wrap instead of running off the screen.
        const actions = p.getByRole('group', { name: 'Actions on the selected monitors' });
        const fits = await actions.evaluate((el) => el.scrollWidth <= el.clientWidth);
        expect(fits, `${label}: bulk actions overflow`).toBe(true);
        await actions.getByRole('button', { name: 'Delete…' }).waitFor();
        const box = await actions.getByRole('button', { name: 'Delete…' }).boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
        await p.mouse.wheel(0, 3_000);
        await expect.poll(() => p.evaluate(() => window.scrollY), LONG).toBeGreaterThan(1_000);
        await p.screenshot({
          path: path.join(dir, `dashboard-scrolled-${label}-${colorScheme}.png`),
        });
        await p.getByRole('button', { name: 'Maintenance…' }).click();
        await p.getByRole('dialog').waitFor();
        await p.screenshot({
          path: path.join(dir, `dashboard-maintenance-${label}-${colorScheme}.png`),
        });
        await p.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
        const first = await list.first().getAttribute('data-monitor-id');
        await p.goto(`${app.url}/monitors/${first}/clone`);
        await p.getByRole('heading', { level: 1, name: 'Clone monitor' }).waitFor();
        await p.screenshot({ path: path.join(dir, `clone-${label}-${colorScheme}.png`) });
        await ctx.close();
      }
    }
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('clone-')).length).toBe(4);
  }, 120_000);
});
