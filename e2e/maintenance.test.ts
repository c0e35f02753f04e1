import { MaintenanceWindow, Monitor } from '@pagewatch/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetServer, type TargetServer } from '../server/test/fixtures/target-server.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

/** Maintenance windows made in the form, previewed by the server, and seen on the dashboard. */
describe('maintenance windows in the browser', () => {
  let browser: Browser;
  let app: TestApp;
  let target: TargetServer;
  let monitorId: number;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // A rule the server refuses answers 400 on purpose; Chromium logs every 4xx it loads.
      if (m.type() === 'error' && !/status of 400/.test(m.text())) errors.push(m.text());
    });
    return page;
  }

  async function api(method: string, url: string, body?: unknown) {
    const res = await fetch(`${app.url}${url}`, {
      method,
      headers: {
        ...app.owner.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  }

  beforeAll(async () => {
    target = await startTargetServer();
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
    const created = await api('POST', '/api/v1/monitors', {
      type: 'http',
      name: 'Billing API',
      url: `${target.url}/ok`,
      interval: 3600,
      timeout: 5,
    });
    monitorId = Monitor.parse(created.body).id;
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await target?.close();
  });

  it('creates a weekly window with a live preview, then lists it as scheduled', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: 'Europe/Berlin',
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Maintenance' })
      .click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByText('No maintenance windows').waitFor();
    await page.screenshot({ path: screenshotPath('maintenance-empty'), fullPage: true });

    await page.getByRole('button', { name: 'New window' }).click();
    await page.getByRole('heading', { name: 'New maintenance window' }).waitFor();
    // The browser's zone is the default.
    expect(await page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe(
      'Europe/Berlin',
    );
    await page.getByLabel('Title').fill('Weekly patching');

    // An advanced rule the server refuses: the preview says why, saving puts it on the field.
    await page
      .getByRole('radiogroup', { name: 'Repeats' })
      .getByRole('radio', { name: 'Cron or RRULE' })
      .click();
    await page.getByLabel('Cron expression').fill('61 * * * *');
    const preview = page.getByRole('region', { name: /Next occurrences/ });
    await preview.getByText(/Invalid value for minute/).waitFor();
    await page.getByRole('button', { name: 'Create window' }).click();
    await page
      .locator('[data-field="expression"] .field__error')
      .getByText(/Invalid value for minute/)
      .waitFor();
    await page.screenshot({ path: screenshotPath('maintenance-form-rule-error'), fullPage: true });

    // The weekly preset: Saturdays and Sundays at 02:30 in New York — or 14:30 when the test
    // runs near that hour, so the new window is never the one happening now.
    const nyHour = Number(
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/New_York',
        hour: 'numeric',
        hourCycle: 'h23',
      }).format(new Date()),
    );
    const at =
      nyHour >= 1 && nyHour < 5
        ? { hm: '14:30', end: '16:00', hour: 14 }
        : { hm: '02:30', end: '04:00', hour: 2 };
    await page
      .getByRole('radiogroup', { name: 'Repeats' })
      .getByRole('radio', { name: 'Weekly' })
      .click();
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.click();
    await zone.fill('New York');
    await zone.press('Enter');
    expect(await zone.inputValue()).toBe('America/New York');
    await page.getByRole('checkbox', { name: 'Sat' }).check();
    await page.getByLabel('At', { exact: true }).fill(at.hm);
    await page.getByLabel('Lasts (minutes)').fill('90');
    const items = preview.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(5);
    await expect.poll(() => preview.textContent()).toContain('America/New_York');
    for (const text of await items.allTextContents()) {
      expect(text).toMatch(new RegExp(`^(Sat|Sun).*${at.hm} – ${at.end}$`));
    }
    await page.screenshot({ path: screenshotPath('maintenance-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create window' }).click();

    await page.getByText('Saved “Weekly patching”.').first().waitFor();
    const scheduled = page.getByRole('region', { name: /Scheduled/ });
    const card = scheduled.getByRole('listitem').filter({ hasText: 'Weekly patching' });
    await card.waitFor();
    expect(await card.textContent()).toContain(`Every Saturday, Sunday at ${at.hm} for 1 h 30 min`);
    expect(await card.textContent()).toContain('All monitors');
    await page.screenshot({ path: screenshotPath('maintenance-list'), fullPage: true });

    const saved = (await api('GET', '/api/v1/maintenance')).body as { items: MaintenanceWindow[] };
    expect(saved.items[0]).toMatchObject({
      timezone: 'America/New_York',
      schedule: {
        kind: 'rrule',
        expression: `FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=${at.hour};BYMINUTE=30`,
        durationMinutes: 90,
      },
    });

    // Editing shows the preset again.
    await card.getByRole('button', { name: 'Edit Weekly patching' }).click();
    expect(await page.getByRole('checkbox', { name: 'Sat' }).isChecked()).toBe(true);
    expect(await page.getByLabel('At', { exact: true }).inputValue()).toBe(at.hm);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });

  it('shows a monitor in an active window as Maintenance on the dashboard, live, until cancelled', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/`);
    const row = page.getByTestId('monitor-row').filter({ hasText: 'Billing API' });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('up');

    const res = await api('POST', '/api/v1/maintenance', {
      title: 'Billing database upgrade',
      timezone: 'UTC',
      scope: { kind: 'monitors', monitorIds: [monitorId] },
      schedule: {
        kind: 'once',
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(res.status).toBe(201);
    // No reload: the status arrives over the event stream.
    await expect
      .poll(() => row.getAttribute('data-status'), { timeout: 15_000 })
      .toBe('maintenance');
    await row.getByText('Maintenance').first().waitFor();
    await page.screenshot({ path: screenshotPath('maintenance-dashboard'), fullPage: true });

    // The monitor's own page says so too, in both themes.
    const dark = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: 'dark',
    });
    await signIn(dark, app.url, app.owner.email, app.owner.password);
    const monitorPage = await newPage(dark);
    await monitorPage.goto(`${app.url}/monitors/${monitorId}`);
    await monitorPage.getByRole('heading', { name: 'Billing API' }).waitFor();
    await monitorPage.locator('.badge[data-status="maintenance"]').first().waitFor();
    await monitorPage.screenshot({ path: screenshotPath('maintenance-monitor-page-dark') });
    await dark.close();

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Maintenance' })
      .click();
    const active = page.getByRole('region', { name: /Active now/ });
    const card = active.getByRole('listitem').filter({ hasText: 'Billing database upgrade' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Billing API');
    await card.getByRole('button', { name: 'Cancel window Billing database upgrade' }).click();
    const dialog = page.getByRole('dialog', { name: /Cancel “Billing database upgrade”/ });
    await dialog.getByText(/The window ends now/).waitFor();
    await page.screenshot({ path: screenshotPath('maintenance-cancel-dialog') });
    await dialog.getByRole('button', { name: 'Cancel window' }).click();
    await page
      .getByRole('region', { name: /Cancelled/ })
      .getByText('Billing database upgrade')
      .waitFor();

    await page.getByRole('link', { name: 'Monitors' }).click();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('up');
    await context.close();
  });

  for (const [label, options] of [
    ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' as const }],
    [
      'phone-dark',
      {
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        colorScheme: 'dark' as const,
      },
    ],
  ] as const) {
    it(`fits the list and the form (${label})`, async () => {
      const context = await browser.newContext(options);
      await signIn(context, app.url, app.owner.email, app.owner.password);
      const page = await newPage(context);
      await page.goto(`${app.url}/maintenance`);
      await page.getByText('Weekly patching').waitFor();
      const overflow = () =>
        page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
      await page.screenshot({ path: screenshotPath(`maintenance-list-${label}`), fullPage: true });
      expect(await overflow()).toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: 'New window' }).click();
      await page
        .getByRole('radiogroup', { name: 'Repeats' })
        .getByRole('radio', { name: 'Daily' })
        .click();
      await page
        .getByRole('radiogroup', { name: 'Applies to' })
        .getByRole('radio', { name: 'Chosen monitors' })
        .click();
      await page.getByRole('checkbox', { name: /Billing API/ }).check();
      await expect
        .poll(() =>
          page
            .getByRole('region', { name: /Next occurrences/ })
            .getByRole('listitem')
            .count(),
        )
        .toBe(5);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await page.screenshot({ path: screenshotPath(`maintenance-form-${label}`), fullPage: true });
      await context.close();
    });
  }

  it('logged no errors in the browser', () => {
    expect(errors).toEqual([]);
  });
});
