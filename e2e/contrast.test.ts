import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';
import {
  axeViolations,
  describeViolations,
  nonTextContrast,
  watchPage,
} from './support/page-audit.js';
import { seedScreens, type Seeded } from './support/screens-seed.js';

type Scheme = 'light' | 'dark';
const schemes: Scheme[] = ['light', 'dark'];

interface Screen {
  name: string;
  path: string;
  /** The document title once the screen's data is in. */
  title: RegExp;
  /** Something to do before looking (an error state); resolves when it shows. */
  act?: (page: Page) => Promise<void>;
}

/**
 * Every screen, in light and dark, with realistic data: axe (WCAG 2.1 A and AA, colour contrast
 * among them) finds nothing, and nothing lands in the console or trips the CSP.
 */
describe('every screen in light and dark: contrast, console and CSP', () => {
  let browser: Browser;
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist, setup: false });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Opens each screen in one page of a `scheme` context; returns every problem found. */
  async function audit(scheme: Scheme, screens: Screen[], cookie?: boolean): Promise<string[]> {
    const context = await browser.newContext({
      colorScheme: scheme,
      viewport: { width: 1280, height: 800 },
    });
    if (cookie) await signIn(context, app.url, OWNER.email, OWNER.password);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const watch = watchPage(page);
    const problems: string[] = [];
    for (const screen of screens) {
      watch.reset();
      try {
        await page.goto(`${app.url}${screen.path}`);
        await page.waitForFunction(
          (re) => new RegExp(re).test(document.title),
          screen.title.source,
        );
        // Loading states are gone before looking: spinners and skeletons are not the screen.
        await page.waitForFunction(() => !document.querySelector('.spinner, [aria-busy="true"]'));
        await screen.act?.(page);
      } catch (error) {
        const shown = `${await page.title()} at ${page.url()}`;
        problems.push(`${screen.name} (${scheme}) never got ready (${shown}): ${String(error)}`);
        continue;
      }
      const complaints = await watch.complaints();
      problems.push(...complaints.map((c) => `${screen.name} (${scheme}): ${c}`));
      const violations = await axeViolations(page);
      if (violations.length > 0)
        problems.push(describeViolations(`${screen.name} (${scheme})`, violations));
      const edges = await nonTextContrast(page);
      problems.push(...edges.map((e) => `${screen.name} (${scheme}): ${e}`));
      await page.screenshot({
        path: screenshotPath(`contrast-${scheme}-${screen.name}`),
        fullPage: true,
      });
    }
    await context.close();
    return problems;
  }

  it.each(schemes)('first-run setup, in %s', async (scheme) => {
    const problems = await audit(scheme, [{ name: 'setup', path: '/setup', title: /^Set up/ }]);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  describe('with a team’s data', () => {
    let seeded: Seeded;
    beforeAll(async () => {
      const owner = await app.identity('owner', OWNER.email);
      seeded = await seedScreens(app, owner);
      // Joins without the scheduler role: Settings → Cluster shows a member and unowned partitions.
      await app.cluster.member.start();
    });

    it.each(schemes)('signed out, in %s', async (scheme) => {
      const problems = await audit(scheme, [
        { name: 'login', path: '/login', title: /^Sign in/ },
        {
          name: 'login-error',
          path: '/login',
          title: /^Sign in/,
          act: async (page) => {
            await page.getByLabel('Email').fill(OWNER.email);
            await page.getByLabel('Password', { exact: true }).fill('not the password');
            await page.getByRole('button', { name: 'Sign in', exact: true }).click();
            await page.getByRole('alert').waitFor();
          },
        },
      ]);
      // The wrong password answers 401 on purpose, and Chromium logs every 4xx it loads.
      const expected = /login-error \(\w+\): console\.error: Failed to load resource: .* 401/;
      expect(
        problems.filter((p) => !expected.test(p)),
        problems.join('\n'),
      ).toEqual([]);
    });

    // 24 screens audited: 47-49 s with another browser file beside it, near the default 60.
    it.each(schemes)('signed in, in %s', { timeout: 180_000 }, async (scheme) => {
      const { monitors, incident, statusPage, channel } = seeded;
      const problems = await audit(
        scheme,
        [
          { name: 'dashboard', path: '/', title: /Monitors · Pagewatch/ },
          { name: 'monitor-new', path: '/monitors/new', title: /^New monitor/ },
          {
            name: 'monitor-new-errors',
            path: '/monitors/new',
            title: /^New monitor/,
            act: async (page) => {
              await page.getByRole('button', { name: 'Create monitor' }).click();
              await page.locator('[aria-invalid="true"]').first().waitFor();
            },
          },
          { name: 'monitor-down', path: `/monitors/${monitors.checkout}`, title: /^Checkout API/ },
          { name: 'monitor-degraded', path: `/monitors/${monitors.search}`, title: /^Search/ },
          {
            name: 'monitor-edit',
            path: `/monitors/${monitors.website}/edit`,
            title: /^Edit Website/,
          },
          { name: 'incidents', path: '/incidents', title: /Incidents · Pagewatch/ },
          { name: 'incident', path: `/incidents/${incident}`, title: /^Checkout failing/ },
          { name: 'maintenance', path: '/maintenance', title: /^Maintenance/ },
          { name: 'status-pages', path: '/status-pages', title: /^Status pages/ },
          {
            name: 'status-page-edit',
            path: `/status-pages/${statusPage}/edit`,
            title: /Acme Cloud/,
          },
          { name: 'notifications', path: '/notifications', title: /^Notifications/ },
          { name: 'notification-new', path: '/notifications/new', title: /^Add channel/ },
          { name: 'notification-edit', path: `/notifications/${channel}`, title: /^Ops webhook/ },
          { name: 'deliveries', path: '/notifications/deliveries', title: /^Deliveries/ },
          { name: 'settings-general', path: '/settings/general', title: /^General/ },
          { name: 'settings-account', path: '/settings/account', title: /^Account/ },
          { name: 'settings-retention', path: '/settings/retention', title: /^Data retention/ },
          { name: 'settings-users', path: '/settings/users', title: /^Users/ },
          { name: 'settings-api-keys', path: '/settings/api-keys', title: /^API keys/ },
          { name: 'settings-audit', path: '/settings/audit', title: /^Audit log/ },
          { name: 'settings-cluster', path: '/settings/cluster', title: /^Cluster/ },
          { name: 'not-found', path: '/no-such-screen', title: /^Not found/ },
        ],
        true,
      );
      expect(problems, problems.join('\n')).toEqual([]);
    });

    it.each(schemes)('public status pages, in %s', async (scheme) => {
      const problems = await audit(scheme, [
        { name: 'status', path: '/status/acme', title: /^Acme Cloud status/ },
        { name: 'status-history', path: '/status/acme/history', title: /^History · Acme/ },
        {
          name: 'status-incident',
          path: `/status/acme/incidents/${seeded.incident}`,
          title: /^Checkout failing/,
        },
        { name: 'subscribe', path: '/status/acme/subscribe', title: /^Subscribe to Acme/ },
      ]);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  });
});
