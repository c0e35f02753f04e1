import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetServer, type TargetServer } from '../server/test/fixtures/target-server.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

/**
 * Issue 18 item 6 in the browser: the monitor form's dependency picker and grouping, a refused
 * cycle named in the form, and "down, parent X down" on the dashboard and the monitor page.
 */
describe('monitor dependencies in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let uplink: TargetServer;
  let service: TargetServer;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    uplink = await startTargetServer();
    service = await startTargetServer();
    app = await startTestApp({ engine: 'sqlite', listen: true, scheduler: true, webDist });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await uplink?.close();
    await service?.close();
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
          path: screenshotPath(`dependencies-${name}-${size}-${scheme}`),
          fullPage: true,
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(desktop);
  }

  async function createMonitor(name: string, target: TargetServer): Promise<number> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'http', name, url: `${target.url}/ok`, interval: 3600, retries: 0 },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: number }>().id;
  }
  const statusOf = async (id: number) =>
    (await app.inject(`/api/v1/monitors/${id}`)).json().status as string;

  it('picks parents in the form, refuses a cycle by name and shows "down, parent X down"', async () => {
    const parent = await createMonitor('Office uplink', uplink);
    const child = await createMonitor('Printer portal', service);
    await expect.poll(() => statusOf(parent), { timeout: 10_000 }).toBe('up');
    await expect.poll(() => statusOf(child), { timeout: 10_000 }).toBe('up');

    // The child depends on the uplink, grouped by a tag within 60 s.
    await page.goto(`${app.url}/monitors/${child}/edit`);
    const section = page.getByTestId('dependencies-section');
    await section.getByPlaceholder('Filter monitors').fill('uplink');
    await section.getByLabel('Office uplink').check();
    await section.getByLabel('Group alerts by tag').fill('office');
    await section.getByLabel('Grouping window (seconds)').fill('60');
    await shoot('form');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${app.url}/monitors/${child}`);
    const stored = (await app.inject(`/api/v1/monitors/${child}/parents`)).json();
    expect(stored.parents.map((p: { id: number }) => p.id)).toEqual([parent]);
    expect(stored.grouping).toEqual({ tag: 'office', windowS: 60 });

    // The uplink depending on the printer portal would close a cycle: refused, named, kept open.
    await page.goto(`${app.url}/monitors/${parent}/edit`);
    const parentSection = page.getByTestId('dependencies-section');
    await parentSection.getByPlaceholder('Filter monitors').fill('printer');
    await parentSection.getByLabel('Printer portal').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(() => parentSection.locator('.field__error').textContent())
      .toBe(
        `Dependency cycle: "Office uplink" (#${parent}) → "Printer portal" (#${child}) → "Office uplink" (#${parent})`,
      );
    expect(page.url()).toBe(`${app.url}/monitors/${parent}/edit`);
    await shoot('cycle');

    // Both go down: the child shows which parent holds its alerts.
    uplink.setMode('down');
    service.setMode('down');
    for (const id of [parent, child]) {
      await app.inject({ method: 'POST', url: `/api/v1/monitors/${id}/check-now` });
      await expect.poll(() => statusOf(id), { timeout: 10_000 }).toBe('down');
    }
    await page.goto(`${app.url}/`);
    const note = page.getByTestId(`held-${child}`);
    await expect
      .poll(() => note.textContent(), { timeout: 10_000 })
      .toBe('down, parent Office uplink down');
    await shoot('dashboard');
    await page.goto(`${app.url}/monitors/${child}`);
    await expect
      .poll(() => page.getByTestId(`held-${child}`).textContent(), { timeout: 10_000 })
      .toBe('down, parent Office uplink down');
    await shoot('monitor');
    expect(errors).toEqual([]);
  }, 90_000);
});
