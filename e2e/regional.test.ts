import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueOf, roundAt } from '../server/src/domain/schedule.js';
import { startTargetServer, type TargetServer } from '../server/test/fixtures/target-server.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { checkRun, downRun } from '../server/test/support/factories.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const INTERVAL_S = 10;

/**
 * Issue 16 in the browser (ADR 58): the monitor form picks locations and k; with one location
 * failing the dashboard shows REGIONAL in amber naming it, and the monitor page each location's
 * status, latency and uptime. `local` is the real scheduler; EU West and US East report through
 * the ingest a probe's batches take (EU West cannot reach the target).
 */
describe('REGIONAL in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let target: TargetServer;
  let page: Page;
  let feeding: NodeJS.Timeout | null = null;
  const errors: string[] = [];

  beforeAll(async () => {
    target = await startTargetServer();
    app = await startTestApp({ engine: 'sqlite', listen: true, scheduler: true, webDist });
    for (const [id, name, region] of [
      ['eu-west', 'EU West', 'Frankfurt'],
      ['us-east', 'US East', 'Virginia'],
    ] as const) {
      await app.database.db
        .insertInto('locations')
        .values({ id, name, region, created_at: Date.now() })
        .execute();
    }
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    if (feeding) clearInterval(feeding);
    await browser?.close();
    await app?.stop();
    await target?.close();
  });

  async function shoot(name: string) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of [
        ['desktop', desktop],
        ['phone', phone],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.screenshot({
          path: screenshotPath(`regional-${name}-${size}-${scheme}`),
          fullPage: true,
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(desktop);
  }

  /** Every second: EU West fails this round, US East passes (a round twice counts once). */
  function feed(monitorId: number) {
    const i = INTERVAL_S * 1000;
    const once = () => {
      const now = Date.now();
      const item = (down: boolean) => ({
        monitorId,
        roundAt: new Date(dueOf(monitorId, i, roundAt(monitorId, i, now))).toISOString(),
        startedAt: new Date(now).toISOString(),
        result: down ? downRun() : checkRun({ latencyMs: 80 }),
      });
      void app.locations.record('eu-west', [item(true)], { replayed: false });
      void app.locations.record('us-east', [item(false)], { replayed: false });
    };
    once();
    feeding = setInterval(once, 1000);
  }

  const statusOf = async (id: number) =>
    (await app.inject(`/api/v1/monitors/${id}`)).json<{ status: string }>().status;

  it('picks locations and k in the form, then shows REGIONAL naming the failing location', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: {
        type: 'http',
        name: 'Checkout API',
        url: `${target.url}/ok`,
        interval: INTERVAL_S,
        timeout: 3,
        retries: 0,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    await expect.poll(() => statusOf(id), { timeout: 15_000 }).toBe('up');

    await page.goto(`${app.url}/monitors/${id}/edit`);
    const section = page.getByTestId('locations-section');
    await section.getByLabel('EU West').check();
    await section.getByLabel('US East').check();
    await section.getByLabel('Down when').selectOption('2');
    await shoot('form');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${app.url}/monitors/${id}`);
    const stored = (await app.inject(`/api/v1/monitors/${id}/locations`)).json<{
      quorum: number;
      locations: { id: string }[];
    }>();
    expect(stored.quorum).toBe(2);
    expect(stored.locations.map((l) => l.id)).toEqual(['eu-west', 'local', 'us-east']);

    feed(id);
    await page.goto(`${app.url}/`);
    const badge = page.locator(`tr:has(a[href="/monitors/${id}"]) .badge`);
    await expect
      .poll(() => badge.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('regional');
    expect(await badge.textContent()).toBe('Regional');
    const row = page.locator(`tr:has(a[href="/monitors/${id}"])`);
    await expect
      .poll(() => row.locator('.mrow__error').textContent(), { timeout: 15_000 })
      .toBe('Failing from EU West: Connection refused');
    // Amber, like degraded: it fails for someone.
    const [colour, amber] = await badge.evaluate((el) => {
      const probe = document.createElement('span');
      probe.className = 'badge badge--degraded';
      document.body.append(probe);
      const degraded = getComputedStyle(probe).color;
      probe.remove();
      return [getComputedStyle(el).color, degraded];
    });
    expect(colour).toBe(amber);
    await shoot('dashboard');

    await page.goto(`${app.url}/monitors/${id}`);
    const panel = page.getByTestId('locations-panel');
    await expect
      .poll(() => panel.locator('.mloc-failing').textContent(), { timeout: 15_000 })
      .toContain('Failing from EU West');
    await expect
      .poll(() => panel.locator('tr[data-location="us-east"]').getAttribute('data-status'))
      .toBe('up');
    await expect
      .poll(() => panel.locator('.mloc-chart canvas').count(), { timeout: 70_000 })
      .toBe(1);
    await shoot('monitor');
    expect(await statusOf(id)).toBe('regional');
    expect(errors).toEqual([]);
  }, 180_000);
});
