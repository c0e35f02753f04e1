import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { csvColumns } from '../server/src/reports/csv.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { toWrite, type GenCheck } from '../server/test/support/history.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { desktop, shootAll } from './support/screens.js';

const MIN = 60_000;
const DAY = 86_400_000;

// Last calendar month in UTC (the browser's zone here), and an hour's outage on its 10th.
const now = new Date();
const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
const lastMonth = new Date(monthStart).toISOString().slice(0, 7);
const outage = {
  start: monthStart + 9 * DAY + 10 * 60 * MIN,
  end: monthStart + 9 * DAY + 11 * 60 * MIN,
};
const ymd = (t: number) => new Date(t).toISOString().slice(0, 10);
const local = (t: number) => new Date(t).toISOString().slice(0, 16);

/** Uptime as the screen writes it: two decimals, rounded down. */
const shown = (u: number) => `${(Math.floor(u * 100) / 100).toFixed(2)}%`;

/**
 * Issue 20 in the browser: an editor sets a monthly SLO and sees its budget, opens Reports for
 * last month and for dates, downloads the CSV and the PDF and finds the screen's figures in
 * them, then leaves the outage out with a correction on the monitor page and sees the report
 * change: uptime 100 %, the SLO met, the correction listed.
 */
describe('Reports in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let monitorId: number;
  let checks: GenCheck[];
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    const repos = repositories(app.database);
    const first = monthStart - 5 * DAY;
    monitorId = (await repos.monitors.insert(monitorInput({ name: 'Storefront' }), first)).id;
    checks = [];
    for (let t = first + 17_000; t < Date.now() - MIN; t += 10 * MIN) {
      const down = t >= outage.start && t < outage.end;
      checks.push({
        monitorId,
        at: t,
        outcome: down ? 'down' : 'up',
        latencyUs: down ? null : 100_000 + ((t / (10 * MIN)) % 40) * 1000,
        phasesUs: { dns: null, connect: null, tls: null, ttfb: null, download: null },
      });
    }
    // Written as the engine writes them: the flips open and resolve an incident.
    let status = 'up';
    const writes = checks.map((c) => {
      const w = toWrite(c);
      const to = c.outcome === 'down' ? 'down' : 'up';
      const flip = to === status ? null : { from: status, to };
      status = to;
      return { ...w, status: to, flip } as typeof w;
    });
    for (let i = 0; i < writes.length; i += 500) {
      await repos.results.writeBatch(writes.slice(i, i + 500));
    }
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: desktop,
      timezoneId: 'UTC',
      acceptDownloads: true,
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** The page in both schemes and sizes; `part` also alone, to read it at phone width. */
  /** Desktop and phone, light and dark: every screen is looked at in all four. */
  const shoot = (name: string, part?: Locator) => shootAll(page, `reports-${name}`, { part });

  /** Last month's uptime counted over the raw checks; `skip` leaves a period out. */
  function expected(skip?: { start: number; end: number }): number {
    const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    let n = 0;
    let good = 0;
    for (const c of checks) {
      if (c.at < monthStart || c.at >= end) continue;
      if (skip && c.at >= skip.start && c.at < skip.end) continue;
      n++;
      if (c.outcome === 'up') good++;
    }
    return Math.round((good / n) * 100_000) / 1000;
  }

  async function download(name: 'Download CSV' | 'Download PDF'): Promise<string> {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name }).click(),
    ]);
    const at = await file.path();
    expect(file.suggestedFilename()).toMatch(/^pagewatch-report-storefront-/);
    return at;
  }

  const uptime = () => page.getByTestId('report-uptime');

  it('creates a monthly SLO and shows its budget', async () => {
    await page.goto(`${app.url}/slos`);
    await page.getByRole('button', { name: 'New SLO' }).click();
    const form = page.getByRole('form', { name: 'New SLO' });
    await form.getByLabel('Name').fill('Storefront monthly');
    await form.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Storefront' });
    await form.getByLabel('Target (%)').fill('99.9');
    await form.getByLabel('Window', { exact: true }).selectOption({ label: 'Calendar month' });
    await form.getByRole('button', { name: 'Save SLO' }).click();
    const card = page.getByRole('listitem', { name: 'Storefront monthly' });
    await expect
      .poll(() => card.getByTestId('slo-budget').textContent(), { timeout: 15_000 })
      .toMatch(/ left · .* of /);
  });

  it('reports last month with its figures, SLO and downloads', { timeout: 180_000 }, async () => {
    await page.getByRole('link', { name: 'Reports' }).first().click();
    await expect.poll(() => page.url()).toContain('/reports');
    const form = page.getByRole('form', { name: 'Report' });
    await form.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Storefront' });
    await form.getByLabel('Range').selectOption('month');
    await form.getByLabel('Month').selectOption(lastMonth);
    const want = expected();
    expect(want).toBeLessThan(99.9);
    await expect.poll(() => uptime().textContent(), { timeout: 20_000 }).toBe(shown(want));
    expect(await page.getByTestId('report-incidents').textContent()).toBe('1');
    expect(await page.getByTestId('report-downtime').textContent()).toBe('1 h');
    const slo = page.getByRole('listitem', { name: 'Storefront monthly' });
    expect(await slo.textContent()).toContain('Missed');
    await shoot('month');

    const csv = readFileSync(await download('Download CSV'), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe(csvColumns.join(','));
    const total = csv.find((l) => l.split(',')[2] === 'total')!.split(',');
    expect(Number(total[5])).toBe(want);
    expect(shown(Number(total[5]))).toBe(await uptime().textContent());
    expect(Number(total[6])).toBe(3600);
    const sloRow = csv.find((l) => l.split(',')[2] === 'slo')!.split(',');
    expect(sloRow.at(-1)).toBe('missed');

    const text = execFileSync('pdftotext', ['-layout', await download('Download PDF'), '-'], {
      encoding: 'utf8',
    });
    const pdfUptime = /UPTIME\s+.*?\n\s*([\d.]+) %/s.exec(text)?.[1];
    expect(pdfUptime, text).toBeDefined();
    expect(shown(Number(pdfUptime))).toBe(await uptime().textContent());
    expect(text).toMatch(/Storefront monthly.*Missed/);
  });

  it('reports a custom range of dates', async () => {
    const form = page.getByRole('form', { name: 'Report' });
    await form.getByLabel('Range').selectOption('custom');
    await form.getByLabel('From').fill(ymd(outage.start));
    await form.getByLabel('To (inclusive)').fill(ymd(outage.start));
    // One day, 144 checks, 6 failed.
    await expect
      .poll(() => uptime().textContent(), { timeout: 20_000 })
      .toBe(shown((138 / 144) * 100));
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toContain(
      ymd(outage.start),
    );
    await shoot('custom');
  });

  it(
    'adds a correction on the monitor page and the report changes',
    { timeout: 240_000 },
    async () => {
      await page.goto(`${app.url}/monitors/${monitorId}`);
      const panel = page.getByRole('region', { name: 'Corrections' });
      await panel.scrollIntoViewIfNeeded();
      await panel.getByRole('button', { name: 'Add correction' }).click();
      const form = panel.getByRole('form', { name: 'Add correction' });
      await form.getByLabel('Starts (UTC)').fill(local(outage.start - 5 * MIN));
      await form.getByLabel('Ends (UTC)').fill(local(outage.end + 5 * MIN));
      // The reason is required: the server's field error shows under the field.
      await form.getByRole('button', { name: 'Leave out this period' }).click();
      await expect
        .poll(() => form.locator('[data-field="reason"]').textContent(), { timeout: 10_000 })
        .toContain('Say why this period is left out');
      await shoot('correction-form', panel);
      await form.getByLabel('Reason').fill('False positive: the probe lost its DNS');
      await form.getByRole('button', { name: 'Leave out this period' }).click();
      const item = panel.getByRole('listitem', { name: 'False positive: the probe lost its DNS' });
      await expect.poll(() => item.textContent(), { timeout: 10_000 }).toContain(app.owner.email);
      await shoot('corrections', panel);

      await page.getByRole('link', { name: 'Reports' }).first().click();
      const report = page.getByRole('form', { name: 'Report' });
      await report.getByLabel('Month').selectOption(lastMonth);
      await expect.poll(() => uptime().textContent(), { timeout: 20_000 }).toBe('100%');
      expect(await page.getByTestId('report-incidents').textContent()).toBe('0');
      expect(
        await page.getByRole('listitem', { name: 'Storefront monthly' }).textContent(),
      ).toContain('Met');
      const corrections = page.getByRole('list', { name: 'Corrections in this report' });
      expect(await corrections.textContent()).toContain('False positive: the probe lost its DNS');
      await shoot('corrected');
      const csv = readFileSync(await download('Download CSV'), 'utf8');
      expect(csv).toMatch(/,slo,.*,met\r\n/);
      expect(errors).toEqual([]);
    },
  );
});
