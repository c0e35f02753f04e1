import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

interface Watched {
  page: Page;
  /** Console errors and warnings, page errors and CSP violations, as text. */
  complaints: string[];
  violations: string[];
  /** Every URL the page asked for. */
  requests: string[];
}

/** The interactive API reference in real Chromium: bundled, under its CSP, offline. */
describe('API reference', () => {
  let browser: Browser;
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function open(
    viewport: { width: number; height: number },
    colorScheme: 'light' | 'dark',
  ): Promise<Watched> {
    const context = await browser.newContext({ viewport, colorScheme });
    const page = await context.newPage();
    const watched: Watched = { page, complaints: [], violations: [], requests: [] };
    page.on('request', (r) => watched.requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning')
        watched.complaints.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => watched.complaints.push(`pageerror: ${e.message}`));
    await page.exposeFunction('reportViolation', (v: string) => watched.violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const w = window as unknown as { reportViolation: (v: string) => void };
        w.reportViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    // Scalar renders operations as they scroll into view; the hash opens one.
    await page.goto(`${app.url}/api/docs#tag/monitors/POST/api/v1/monitors`);
    await page
      .getByRole('heading', { name: 'Create a monitor; it is checked right away' })
      .waitFor();
    return watched;
  }

  it('renders the operations with no CSP violation, console error or request to another host', async () => {
    const w = await open(desktop, 'light');
    // The sidebar lists operations; the request body comes from the document's components.
    await w.page.getByText('List every monitor with its status').first().waitFor();
    await w.page.getByText('HttpMonitorInput').first().waitFor();
    expect(w.violations).toEqual([]);
    expect(w.complaints.filter((c) => /content security policy/i.test(c))).toEqual([]);
    expect(w.complaints.filter((c) => !c.startsWith('warning'))).toEqual([]);
    const origin = new URL(app.url).origin;
    const elsewhere = w.requests.filter((u) => !u.startsWith(origin) && !/^(data|blob):/.test(u));
    expect(elsewhere).toEqual([]);
    expect(w.requests).toContain(`${origin}/api/v1/openapi.json`);
    if (w.complaints.length > 0) console.info(`console warnings:\n${w.complaints.join('\n')}`);
    await w.page.screenshot({ path: screenshotPath('api-reference-desktop-light') });
    await w.page.context().close();
  });

  it('reads on a phone and in dark mode', async () => {
    for (const [name, viewport, scheme] of [
      ['desktop-dark', desktop, 'dark'],
      ['phone-light', phone, 'light'],
      ['phone-dark', phone, 'dark'],
    ] as const) {
      const w = await open(viewport, scheme);
      expect(w.violations, name).toEqual([]);
      expect(
        w.complaints.filter((c) => !c.startsWith('warning')),
        name,
      ).toEqual([]);
      await w.page.screenshot({ path: screenshotPath(`api-reference-${name}`) });
      await w.page.context().close();
    }
  });

  it('is linked from Settings → API keys, opening in a new tab', async () => {
    const context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await context.newPage();
    await page.goto(`${app.url}/settings/api-keys`);
    const [reference] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'API reference' }).click(),
    ]);
    await reference.waitForURL(`${app.url}/api/docs`);
    await reference.getByText('Pagewatch API').first().waitFor();
    await context.close();
  });
});
