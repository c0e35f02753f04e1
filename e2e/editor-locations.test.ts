import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_PROTOCOL_HEADER, PROBE_PROTOCOL_VERSION } from '@pagewatch/contract';
import { startTestApp, type Identity, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, signInWithForm, watchErrors } from './support/auth-ui.js';
import { launchBrowser, webDist } from './support/browser.js';
import { until } from '../server/test/support/until.js';

/**
 * ADR 70: an editor picks locations by name and sees which report, and no screen an editor can
 * open asks the server for what only admins may read (a 403 the app would swallow).
 */
describe('locations as an editor sees them in the browser', () => {
  let browser: Browser;
  let app: TestApp;
  let editor: Identity;
  let page: Page;
  let errors: string[];
  let monitorId: number;
  /** Every API answer the app received, as "METHOD path status". */
  const answers: string[] = [];

  const owner = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${app.url}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...app.owner.headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, `${method} ${url}: ${await res.clone().text()}`).toBeLessThan(300);
    return res.json() as Promise<Record<string, unknown>>;
  };

  let probeToken = '';
  /** EU West reports (a heartbeat, as its probe sends every 5 s); US East has no probe. */
  const beat = async () => {
    const res = await fetch(`${app.url}/api/probe/v1/heartbeat`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${probeToken}`,
        [PROBE_PROTOCOL_HEADER]: String(PROBE_PROTOCOL_VERSION),
      },
      body: JSON.stringify({
        version: 'test',
        host: null,
        clockOffsetMs: 0,
        load: 0,
        latenessP99Ms: null,
        spoolDepth: 0,
        spoolDropped: 0,
        monitors: 0,
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  /** Resolves once no API answer has come for a second: the screen's queries are done. */
  const settled = async () => {
    let seen = -1;
    while (seen !== answers.length) {
      seen = answers.length;
      await page.waitForTimeout(1_000);
    }
  };

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    editor = await app.identity('editor');
    const eu = (await owner('POST', '/api/v1/locations', { name: 'EU West', region: 'Dublin' }))
      .id as string;
    await owner('POST', '/api/v1/locations', { name: 'US East', region: 'Virginia' });
    const { token } = (await owner('POST', `/api/v1/locations/${eu}/probes`, {
      name: 'eu-1',
    })) as { token: string };
    probeToken = token;
    await beat();
    monitorId = (
      await owner('POST', '/api/v1/monitors', {
        type: 'http',
        name: 'Storefront',
        url: 'http://127.0.0.1:9/',
        paused: true,
      })
    ).id as number;
    await owner('PUT', `/api/v1/monitors/${monitorId}/locations`, {
      locations: ['local', eu],
      quorum: null,
    });
    browser = await launchBrowser();
    ({ page } = await newPage(browser));
    errors = watchErrors(page);
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/api/'))
        answers.push(`${res.request().method()} ${url.pathname} ${res.status()}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it(
    'reads the API for every screen an editor can open, never asking for an admin’s route',
    {
      timeout: 180_000,
    },
    async () => {
      await page.goto(`${app.url}/login`);
      await signInWithForm(page, editor.email, editor.password);
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
      const h1 = () => page.locator('main').first();
      const screens = [
        ['/', () => page.getByTestId('monitor-row').first()],
        [`/monitors/${monitorId}`, () => page.getByRole('heading', { name: 'Storefront' })],
        [`/monitors/${monitorId}/edit`, () => page.getByTestId('locations-section')],
        ['/monitors/new', () => page.getByTestId('locations-section')],
        ['/incidents', h1],
        ['/maintenance', h1],
        ['/slos', h1],
        ['/status-pages', h1],
        ['/notifications', h1],
        ['/settings/account', h1],
      ] as const;
      for (const [path, ready] of screens) {
        await page.goto(`${app.url}${path}`);
        await ready().waitFor();
        await settled();
      }
      const refused = answers.filter((a) => / (401|403)$/.test(a));
      expect(refused).toEqual([]);
      expect(answers.some((a) => a.startsWith('GET /api/v1/monitors/location-choices 200'))).toBe(
        true,
      );
      expect(answers.filter((a) => /^GET \/api\/v1\/locations\b/.test(a))).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it('picks locations by name on the form, the silent one marked offline', async () => {
    await beat();
    // A location marked offline is cleared by the next sweep (every 5 s) after a heartbeat.
    await until('EU West online again', async () => {
      const res = await fetch(`${app.url}/api/v1/monitors/location-choices`, {
        headers: editor.headers,
      });
      const { items } = (await res.json()) as { items: { id: string; online: boolean | null }[] };
      return items.find((i) => i.id === 'eu-west')?.online === true;
    });
    await page.goto(`${app.url}/monitors/${monitorId}/edit`);
    const section = page.getByTestId('locations-section');
    await section.getByText('EU West').waitFor();
    const us = section.locator('label', { hasText: 'US East' });
    await us.getByText('offline', { exact: true }).waitFor();
    expect(
      await section.locator('label', { hasText: 'EU West' }).getByText('offline').count(),
    ).toBe(0);
    expect(await section.getByRole('checkbox', { name: /EU West/ }).isChecked()).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await screenshotAll(page, 'editor-location-choices');
    // What the choices route gives an editor: names and online state, no probe or token.
    const body = await page.evaluate(async () =>
      (await fetch('/api/v1/monitors/location-choices')).text(),
    );
    expect(body).not.toMatch(/probe|token|pwp_|heartbeat|host/i);
    expect(JSON.parse(body)).toEqual({
      items: [
        { id: 'local', name: 'local', region: null, online: null },
        { id: 'eu-west', name: 'EU West', region: 'Dublin', online: true },
        { id: 'us-east', name: 'US East', region: 'Virginia', online: false },
      ],
    });
  });
});
