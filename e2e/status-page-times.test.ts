import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import {
  checkRun,
  downRun,
  maintenanceInput,
  monitorInput,
} from '../server/test/support/factories.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const at = (iso: string) => Date.parse(iso);
const HOSTILE = '<img src=x onerror="document.title=1">';

/**
 * What a status page says about time, in real Chromium with both clocks fixed: the visitor's
 * zone with the script, the page's (named) without, a maintenance range as one phrase, each
 * update at its own time; a component down with no public word reads “We’re looking into it.”
 * and editors are asked to post one; today's bar is maintenance when every failure was inside.
 */
describe('status page times and truth', () => {
  let browser: Browser;
  let app: TestApp;
  // Wednesday 2 December 2026, 12:00 UTC, on the server and in the browser.
  const NOW = at('2026-12-02T12:00:00Z');
  let serverNow = NOW;
  let url: string;
  let pageId: number;
  let checkoutName: string;
  const errors: string[] = [];

  async function post<T>(path: string, body: unknown): Promise<T> {
    const res = await app.inject({ method: 'POST', url: path, payload: body as object });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<T>();
  }

  beforeAll(async () => {
    app = await startTestApp({
      engine: 'sqlite',
      listen: true,
      webDist,
      clock: { now: () => serverNow },
    });
    const repos = repositories(app.database);
    const api = await post<{ id: number }>('/api/v1/monitors', monitorInput({ name: 'API' }));
    const checkout = await post<{ id: number; name: string }>(
      '/api/v1/monitors',
      monitorInput({ name: 'Checkout' }),
    );
    checkoutName = checkout.name;
    // API failed once today, inside this morning's window; Checkout is down now.
    await post('/api/v1/maintenance', {
      ...maintenanceInput({
        title: 'Network upgrade',
        timezone: 'UTC',
        scope: { kind: 'monitors', monitorIds: [api.id] },
        schedule: {
          kind: 'once',
          startsAt: '2026-12-02T10:00:00Z',
          endsAt: '2026-12-02T11:00:00Z',
        },
      }),
    });
    await post('/api/v1/maintenance', {
      ...maintenanceInput({
        title: `Database move ${HOSTILE}`,
        timezone: 'UTC',
        scope: { kind: 'monitors', monitorIds: [api.id, checkout.id] },
        schedule: {
          kind: 'once',
          startsAt: '2026-12-06T09:00:00Z',
          endsAt: '2026-12-06T11:00:00Z',
        },
      }),
    });
    const write = (monitorId: number, iso: string, down: boolean) =>
      repos.results.writeBatch([
        {
          monitorId,
          at: at(iso),
          run: down ? downRun() : checkRun(),
          status: down ? 'down' : 'up',
          failures: down ? 1 : 0,
          recent: [],
          flip: null,
        },
      ]);
    for (const [iso, down] of [
      ['2026-12-02T09:00:00Z', false],
      ['2026-12-02T10:30:00Z', true],
      ['2026-12-02T11:30:00Z', false],
    ] as const)
      await write(api.id, iso, down);
    await write(checkout.id, '2026-12-02T11:50:00Z', true);
    await app.database.db
      .updateTable('monitors')
      .set({ status: 'down' })
      .where('id', '=', checkout.id)
      .execute();
    // Each failure opened Pagewatch's own incident (no public word): API's is spoken for by
    // the public one below, Checkout's is not.
    // A public incident on API with two updates 35 minutes apart.
    serverNow = at('2026-12-02T11:05:00Z');
    const incident = await post<{ id: number }>('/api/v1/incidents', {
      title: 'Slow API responses',
      message: 'We are investigating slow responses.',
      public: true,
      monitorIds: [api.id],
    });
    serverNow = at('2026-12-02T11:40:00Z');
    await post(`/api/v1/incidents/${incident.id}/updates`, {
      state: 'monitoring',
      message: 'A fix is out; we are watching it.',
      public: true,
    });
    serverNow = NOW;
    const page = await post<{ id: number }>('/api/v1/status-pages', {
      slug: 'times',
      title: 'Acme times',
      published: true,
      timeZone: 'Europe/Berlin',
      sections: [
        { title: 'Services', components: [{ monitorId: api.id }, { monitorId: checkout.id }] },
      ],
    });
    pageId = page.id;
    url = `${app.url}/status/times`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function visit(options: {
    timezoneId: string;
    javaScriptEnabled?: boolean;
    viewport?: { width: number; height: number };
    colorScheme?: 'light' | 'dark';
  }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      timezoneId: options.timezoneId,
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      viewport: options.viewport ?? desktop,
      colorScheme: options.colorScheme ?? 'light',
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    if (options.javaScriptEnabled !== false) await page.clock.setFixedTime(NOW);
    await page.goto(url);
    return { context, page };
  }

  const maintenanceLine = (page: Page) =>
    page.getByRole('region', { name: 'Maintenance' }).locator('p.muted').first().innerText();
  const updateTimes = (page: Page) =>
    page.getByRole('region', { name: 'Active incidents' }).locator('.upd time').allInnerTexts();
  const todayBar = (page: Page, name: string) =>
    page
      .locator('li.comp', { has: page.getByRole('heading', { name, exact: true }) })
      .locator('.bars > i')
      .last()
      .getAttribute('class');

  it('without script: times in the page’s zone, named; the range as one phrase; hostile text as text', async () => {
    const { context, page } = await visit({
      timezoneId: 'America/New_York',
      javaScriptEnabled: false,
    });
    expect(await maintenanceLine(page)).toBe(
      'Scheduled from Sun 6 Dec 10:00 to 12:00 (CET) · affects API, Checkout',
    );
    expect(await updateTimes(page)).toEqual(['Wed 2 Dec, 12:40 CET', 'Wed 2 Dec, 12:05 CET']);
    expect(await page.locator('[data-tz]').innerText()).toBe(
      'Times are in Europe/Berlin time (CET).',
    );
    // Typed text stays text: the title shows its angle brackets and adds no element.
    await page.getByRole('heading', { name: `Database move ${HOSTILE}` }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    expect(await todayBar(page, 'API')).toBe('m');
    const checkout = page.locator('li.comp', {
      has: page.getByRole('heading', { name: checkoutName, exact: true }),
    });
    expect(await checkout.locator('.cnote').innerText()).toBe('We’re looking into it.');
    expect(await checkout.locator('.st').innerText()).toBe('Outage');
    await page.screenshot({ path: screenshotPath('status-times-noscript'), fullPage: true });
    await context.close();
  });

  for (const [timezoneId, range, updates, note] of [
    [
      'America/New_York',
      'Scheduled from Sun 6 Dec 04:00 to 06:00 (EST) · starts in 4 days · affects API, Checkout',
      ['Wed 2 Dec, 06:40 EST', 'Wed 2 Dec, 06:05 EST'],
      'Times are in your time zone, America/New York (EST).',
    ],
    [
      'Asia/Kolkata',
      'Scheduled from Sun 6 Dec 14:30 to 16:30 (GMT+5:30) · starts in 4 days · affects API, Checkout',
      ['Wed 2 Dec, 17:10 GMT+5:30', 'Wed 2 Dec, 16:35 GMT+5:30'],
      'Times are in your time zone, Asia/Kolkata (GMT+5:30).',
    ],
  ] as const) {
    it(`with script in ${timezoneId}: the visitor’s zone, a relative hint where it helps`, async () => {
      const { context, page } = await visit({ timezoneId });
      await page.locator('[data-tz]').getByText('your time zone').waitFor();
      expect(await maintenanceLine(page)).toBe(range);
      expect(await updateTimes(page)).toEqual(updates);
      expect(await page.locator('[data-tz]').innerText()).toBe(note);
      const text = await page.locator('main').innerText();
      expect(text).not.toMatch(/in \d+ \w+ to in/);
      // The open incident says how long ago it started; updates keep their own times.
      expect(text).toContain('started Wed 2 Dec');
      expect(text).toMatch(/started Wed 2 Dec, \d\d:\d\d \S+ · 55 minutes ago/);
      expect(await todayBar(page, 'API')).toBe('m');
      await context.close();
    });
  }

  it('looks right on a desktop and a phone, light and dark', async () => {
    for (const [name, viewport] of [
      ['desktop', desktop],
      ['phone', phone],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context, page } = await visit({
          timezoneId: 'Europe/Berlin',
          viewport,
          colorScheme,
        });
        await page.locator('[data-tz]').getByText('your time zone').waitFor();
        await page.screenshot({
          path: screenshotPath(`status-times-${name}-${colorScheme}`),
          fullPage: true,
        });
        await context.close();
      }
    }
    expect(errors).toEqual([]);
  });

  async function editor(viewport = desktop, colorScheme: 'light' | 'dark' = 'light') {
    const who = await app.identity('editor');
    const context = await browser.newContext({
      viewport,
      colorScheme,
      timezoneId: 'Europe/Berlin',
    });
    await signIn(context, app.url, who.email, who.password);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page };
  }

  it('asks editors to post a public update on the dashboard, the page editor and the incident', async () => {
    const { context, page } = await editor();
    await page.goto(`${app.url}/`);
    const banner = page.getByTestId('unannounced');
    await banner.getByText(`${checkoutName} is down on the public page “Acme times”`).waitFor();
    await page.screenshot({ path: screenshotPath('status-unannounced-dashboard') });

    await page.goto(`${app.url}/status-pages/${pageId}/edit`);
    await banner.getByText(`${checkoutName} is down on the public page “Acme times”`).waitFor();

    await banner.getByRole('link', { name: 'Post a public update' }).click();
    await page.getByRole('heading', { name: 'Checkout is down' }).waitFor();
    await banner.getByText('Visitors read only “We’re looking into it.”').waitFor();
    await page.screenshot({ path: screenshotPath('status-unannounced-incident') });
    await page.getByLabel('Update', { exact: true }).fill('Card payments fail; we are on it.');
    const publicBox = page.getByRole('checkbox', { name: 'Show on public status pages' });
    if (!(await publicBox.isChecked())) await publicBox.check();
    await page.getByRole('button', { name: /Post update/i }).click();
    await banner.waitFor({ state: 'detached' });

    const visitor = await browser.newPage({ javaScriptEnabled: false });
    await visitor.goto(url);
    expect(await visitor.locator('.cnote').count()).toBe(0);
    await visitor.getByText('Card payments fail; we are on it.').waitFor();
    await visitor.close();
    await context.close();
  });

  it('puts each editor error beside its field and takes the focus to the first', async () => {
    const { context, page } = await editor();
    await page.goto(`${app.url}/status-pages/${pageId}/edit`);
    await page.getByLabel('Footer').fill('x'.repeat(1001));
    await page.getByRole('button', { name: 'Save' }).click();
    const footer = page.locator('[data-field="footer"]');
    await footer
      .locator('.field__error')
      .getByText('The footer is limited to 1,000 characters')
      .waitFor();
    // The footer is far down the form: it is scrolled to and focused.
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'footer');
    expect(
      await footer.locator('textarea').evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      }),
    ).toBe(true);
    // The preview stays in view while the form scrolls.
    const preview = page.getByRole('complementary', { name: 'Preview' });
    const box = await preview.boundingBox();
    expect(box && box.y >= 0 && box.y < 200).toBe(true);
    await page.screenshot({ path: screenshotPath('status-editor-error-desktop') });

    // Two errors: the first in the form's order gets the focus.
    await page.getByLabel('Title', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-field="title"] .field__error').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'title');
    expect(await page.locator('.form__summary').innerText()).toContain('2 fields need attention.');

    // Email subscriptions without any email channel: said beside the checkbox.
    await page.getByLabel('Email subscriptions').check();
    const checks = page.locator('.sp-checks', { has: page.getByLabel('Email subscriptions') });
    await checks.getByText('No email channel: subscriber mail cannot be sent').waitFor();
    await checks.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('status-editor-no-mail-channel') });
    await context.close();
  });

  it('shows the editor’s errors and preview on a desktop and a phone, light and dark', async () => {
    for (const [name, viewport] of [
      ['desktop', desktop],
      ['phone', phone],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context: c, page: p } = await editor(viewport, colorScheme);
        await p.goto(`${app.url}/status-pages/${pageId}/edit`);
        await p.getByLabel('Title', { exact: true }).fill('');
        await p.getByLabel('Email subscriptions').check();
        await p.getByRole('button', { name: 'Save' }).click();
        await p.waitForFunction(() => document.activeElement?.getAttribute('name') === 'title');
        await p.screenshot({ path: screenshotPath(`status-editor-${name}-${colorScheme}`) });
        if (name === 'phone') {
          await p.getByRole('button', { name: 'Preview' }).click();
          await p.getByLabel('Email subscriptions').scrollIntoViewIfNeeded();
          await p.screenshot({
            path: screenshotPath(`status-editor-${name}-${colorScheme}-preview`),
          });
        }
        await c.close();
      }
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
