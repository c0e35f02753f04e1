import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrowserPool,
  ownOriginGuard,
  runBrowserCheck,
  type BrowserCheckSpec,
  type BrowserEngine,
} from '../../src/engine/checks/browser/index.js';
import { MAX_SCREENSHOT_BYTES } from '../../src/engine/checks/browser/evidence.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { startBrowserSites, type BrowserSites } from '../fixtures/browser-sites.js';

const CHROMIUM = process.env.PAGEWATCH_CHROMIUM_PATH ?? '/usr/bin/chromium';
const SLOW_MS = 1200;
const logger = pino({ level: 'silent' });

let sites: BrowserSites;
let pool: BrowserPool;
let engine: BrowserEngine;

beforeAll(async () => {
  sites = await startBrowserSites({ slowMs: SLOW_MS });
  pool = new BrowserPool({ executablePath: CHROMIUM, concurrency: 2, logger });
  engine = { pool, forbidden: () => false };
});

afterAll(async () => {
  await pool.close();
  await sites.close();
});

function spec(path: string, overrides: Partial<BrowserCheckSpec> = {}): BrowserCheckSpec {
  return {
    url: `${sites.url}${path}`,
    viewport: 'desktop',
    waitFor: 'load',
    waitSelector: '',
    requiredText: '',
    requiredSelector: '',
    lcpThresholdMs: null,
    degradedThresholdMs: null,
    failOnJsError: true,
    basicAuth: null,
    headers: [],
    timeoutMs: 15_000,
    ...overrides,
  };
}

const check = (path: string, overrides: Partial<BrowserCheckSpec> = {}, e = engine) =>
  runBrowserCheck(spec(path, overrides), { signal: new AbortController().signal }, e);

function measurements(run: CheckRun) {
  expect(run.browser).toBeDefined();
  return run.browser!.measurements;
}

function expectJpeg(run: CheckRun): void {
  const shot = run.browser?.screenshot;
  expect(shot).toBeInstanceOf(Uint8Array);
  expect([shot![0], shot![1], shot![2]]).toEqual([0xff, 0xd8, 0xff]);
  expect(shot!.length).toBeLessThanOrEqual(MAX_SCREENSHOT_BYTES);
}

describe('browser check against loopback sites in real Chromium', () => {
  it('measures a healthy page: timings, vitals, transfer, waterfall and a screenshot', async () => {
    const run = await check('/healthy', { requiredText: 'Welcome', requiredSelector: 'img' });
    expect(run.errorMessage).toBeNull();
    expect(run.outcome).toBe('up');
    expect(run.httpStatus).toBe(200);
    const m = measurements(run);
    expect(m.loadMs).toBeGreaterThan(0);
    expect(m.loadMs).toBeLessThan(10_000);
    expect(run.latencyMs).toBe(m.loadMs);
    expect(m.domContentLoadedMs).toBeGreaterThan(0);
    expect(m.domContentLoadedMs).toBeLessThanOrEqual(m.loadMs!);
    expect(m.lcpMs).toBeGreaterThan(0);
    expect(m.lcpMs).toBeLessThan(10_000);
    expect(m.cls).toBeGreaterThanOrEqual(0);
    expect(m.cls).toBeLessThan(0.05);
    expect(m.inpMs).toBeGreaterThanOrEqual(0);
    expect(m.inpMs).toBeLessThan(1000);
    // The document, its stylesheet, script and image (the favicon may add one more).
    expect(m.requests).toBeGreaterThanOrEqual(4);
    expect(m.transferBytes).toBeGreaterThan(1000);
    expect(m.failedRequests.filter((f) => !f.url.endsWith('/favicon.ico'))).toEqual([]);
    expect(m.console.filter((c) => !c.text.includes('favicon'))).toEqual([]);
    expect(m.redirects).toBe(0);
    expect(m.finalUrl).toBe(`${sites.url}/healthy`);
    const urls = m.waterfall.map((r) => new URL(r.url).pathname);
    expect(urls).toEqual(expect.arrayContaining(['/site.css', '/app.js', '/hero.svg']));
    const durations = m.waterfall.map((r) => r.durationMs);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
    for (const p of ['dns', 'connect', 'ttfb', 'download'] as const) {
      expect(run.phases[p]).toBeGreaterThanOrEqual(0);
    }
    expect(run.phases.tls).toBeNull();
    expectJpeg(run);
  });

  it('degrades when a script 404s and lists the failed request and the console error', async () => {
    const run = await check('/script-404');
    expect(run.outcome).toBe('degraded');
    expect(run.errorCode).toBe('browser_resource_failed');
    expect(run.errorMessage).toContain('/missing.js');
    const m = measurements(run);
    expect(m.failedRequests.filter((f) => !f.url.endsWith('/favicon.ico'))).toEqual([
      { url: `${sites.url}/missing.js`, type: 'script', status: 404, error: null },
    ]);
    expect(m.console.some((c) => c.kind === 'error' && c.text.includes('404'))).toBe(true);
    expectJpeg(run);
  });

  it('goes down on an uncaught exception, or only reports it when told to', async () => {
    const run = await check('/throws');
    expect(run.outcome).toBe('down');
    expect(run.errorCode).toBe('browser_js_error');
    expect(run.errorMessage).toContain('fixture exploded');
    expect(measurements(run).console).toContainEqual({
      kind: 'exception',
      text: 'fixture exploded',
    });
    expectJpeg(run);
    const lenient = await check('/throws', { failOnJsError: false });
    expect(lenient.outcome).toBe('up');
    expect(measurements(lenient).console.map((c) => c.kind)).toContain('exception');
  });

  it('measures a slow Largest Contentful Paint and degrades past the LCP threshold', async () => {
    const run = await check('/slow-lcp', { lcpThresholdMs: 500 });
    const m = measurements(run);
    expect(m.lcpMs).toBeGreaterThanOrEqual(SLOW_MS);
    expect(m.lcpMs).toBeLessThan(SLOW_MS + 8000);
    expect(m.loadMs).toBeGreaterThanOrEqual(SLOW_MS);
    expect(run.outcome).toBe('degraded');
    expect(run.errorCode).toBe('degraded_latency');
    expect(run.errorMessage).toMatch(/Largest Contentful Paint \d+ ms is over 500 ms/);
    const load = await check('/slow-lcp', { degradedThresholdMs: 300 });
    expect(load.errorCode).toBe('degraded_latency');
    expect(load.errorMessage).toMatch(/Load \d+ ms is over 300 ms/);
  });

  it('times out a page that never finishes loading, with what it did measure and a screenshot', async () => {
    const run = await check('/never-loads', { timeoutMs: 5000 });
    expect(run.outcome).toBe('down');
    expect(run.errorCode).toBe('timeout');
    expect(run.errorMessage).toBe('The page did not finish loading within 5 s');
    const m = measurements(run);
    expect(m.loadMs).toBeNull();
    expect(m.domContentLoadedMs).toBeGreaterThan(0);
    expectJpeg(run);
  });

  it('ends a page whose script never yields within the deadline', async () => {
    const run = await check('/spin', { timeoutMs: 4000 });
    expect(run.outcome).toBe('down');
    expect(run.errorCode).toBe('timeout');
    // The browser still serves the next check.
    expect((await check('/healthy')).outcome).toBe('up');
  });

  it('waits for a selector: down when it never shows, up when it shows late', async () => {
    const missing = await check('/no-selector', {
      waitFor: 'selector',
      waitSelector: '#ready',
      timeoutMs: 5000,
    });
    expect(missing.outcome).toBe('down');
    expect(missing.errorCode).toBe('browser_element_missing');
    expect(missing.errorMessage).toBe('“#ready” did not show in time');
    expectJpeg(missing);
    const late = await check('/late-selector', { waitFor: 'selector', waitSelector: '#ready' });
    expect(late.outcome).toBe('up');
  });

  it('requires content: a missing selector or text takes the monitor down', async () => {
    const noElement = await check('/healthy', { requiredSelector: '.basket' });
    expect(noElement.errorCode).toBe('browser_element_missing');
    expect(noElement.errorMessage).toBe('The page has no element matching “.basket”');
    const noText = await check('/healthy', { requiredText: 'Closed today' });
    expect(noText.errorCode).toBe('keyword_missing');
    expect(noText.errorMessage).toBe('The page does not show “Closed today”');
  });

  it('follows a redirect chain and reports where it ended', async () => {
    const run = await check('/redirect/3', { waitFor: 'networkidle' });
    expect(run.outcome).toBe('up');
    const m = measurements(run);
    expect(m.redirects).toBe(3);
    expect(m.finalUrl).toBe(`${sites.url}/healthy`);
    expect(run.latencyMs).toBeGreaterThan(0);
  });

  it('adds up layout shifts', async () => {
    const m = measurements(await check('/shifts', { waitFor: 'networkidle' }));
    expect(m.cls).toBeGreaterThan(0.05);
    expect(m.cls).toBeLessThan(3);
  });

  it('sends basic auth and extra headers; a 401 page is a load failure', async () => {
    const denied = await check('/protected');
    expect(denied.outcome).toBe('down');
    expect(denied.errorCode).toBe('browser_load_failed');
    expect(denied.errorMessage).toBe('The page asks for a user name and password (HTTP 401)');
    const allowed = await check('/protected', {
      basicAuth: { username: 'user', password: 'secret' },
      headers: [{ name: 'X-Probe', value: 'pagewatch' }],
    });
    expect(allowed.outcome).toBe('up');
    const seen = sites.requests.filter((r) => r.path === '/protected').at(-1);
    expect(seen?.headers['x-probe']).toBe('pagewatch');
  });

  it('renders the phone preset at phone width', async () => {
    const run = await check('/healthy', { viewport: 'phone' });
    expect(run.outcome).toBe('up');
    const shot = Buffer.from(run.browser!.screenshot!);
    // JPEG SOF0 marker carries height then width.
    const sof = shot.indexOf(Buffer.from([0xff, 0xc0]));
    expect(shot.readUInt16BE(sof + 7)).toBe(390);
  });

  it('refuses Pagewatch’s own origin, for the page and for redirects to it', async () => {
    const guarded: BrowserEngine = {
      pool,
      forbidden: ownOriginGuard({ listening: () => ({ host: '127.0.0.1', port: sites.port }) }),
    };
    const direct = await check('/healthy', {}, guarded);
    expect(direct.errorCode).toBe('browser_load_failed');
    expect(direct.errorMessage).toBe('Browser checks may not load Pagewatch’s own address');
    expect(direct.browser).toBeUndefined();
    // `other` plays Pagewatch: a badge from it is refused, a redirect to it fails the check.
    const other = await startBrowserSites();
    try {
      const viaOther: BrowserEngine = {
        pool,
        forbidden: ownOriginGuard({ listening: () => ({ host: '0.0.0.0', port: other.port }) }),
      };
      const badge = await check(`/embed?src=${other.url}/hero.svg`, {}, viaOther);
      expect(other.requests).toEqual([]);
      expect(badge.outcome).toBe('degraded');
      expect(measurements(badge).failedRequests).toEqual([
        {
          url: `${other.url}/hero.svg`,
          type: 'image',
          status: null,
          error: 'Refused: browser checks may not load this address',
        },
      ]);
      const redirected = await check(`/go?to=${other.url}/healthy`, {}, viaOther);
      expect(redirected.outcome).toBe('down');
      expect(redirected.errorCode).toBe('browser_load_failed');
      expect(redirected.errorMessage).toBe(
        `The page tried to reach ${other.url}/healthy, which browser checks may not load`,
      );
      expect(redirected.browser?.screenshot).toBeNull();
      const direct = await check(
        '/healthy',
        {},
        {
          pool,
          forbidden: ownOriginGuard({ publicUrl: `${sites.url}/`, listening: () => null }),
        },
      );
      expect(direct.errorCode).toBe('browser_load_failed');
    } finally {
      await other.close();
    }
  });
});

describe('browser recovery and setup errors', () => {
  it('reports a crash when Chromium is killed mid-check and relaunches for the next', async () => {
    await check('/healthy');
    const pending = check('/never-loads', { timeoutMs: 15_000 });
    const pid = await waitFor(() =>
      sites.requests.some((r) => r.path === '/hang.svg') ? pool.pid : null,
    );
    process.kill(pid, 'SIGKILL');
    const run = await pending;
    expect(run.outcome).toBe('down');
    expect(run.errorCode).toBe('browser_crashed');
    expect(run.errorMessage).toBe('Chromium crashed during the check; it has been restarted');
    const next = await check('/healthy');
    expect(next.outcome).toBe('up');
    expect(pool.pid).not.toBe(pid);
    expect(pool.pid).not.toBeNull();
  });

  it('replaces a browser that grew past the memory cap, between checks', async () => {
    const small = new BrowserPool({ executablePath: CHROMIUM, maxMemoryBytes: 1, logger });
    try {
      const e = { pool: small, forbidden: () => false };
      const pending = check('/healthy', {}, e);
      const first = await waitFor(() => small.pid);
      expect((await pending).outcome).toBe('up');
      expect((await check('/healthy', {}, e)).outcome).toBe('up');
      expect(small.pid).not.toBeNull();
      expect(small.pid).not.toBe(first);
    } finally {
      await small.close();
    }
  });

  it('without Chromium, browser checks fail with a setup error that names the variable', async () => {
    const missing = new BrowserPool({ executablePath: '/nonexistent/chromium', logger });
    try {
      const run = await check('/healthy', {}, { pool: missing, forbidden: () => false });
      expect(run.outcome).toBe('down');
      expect(run.errorCode).toBe('browser_unavailable');
      expect(run.errorMessage).toContain('PAGEWATCH_CHROMIUM_PATH');
      expect(run.errorMessage).toContain('/nonexistent/chromium');
    } finally {
      await missing.close();
    }
  });
});

async function waitFor<T>(probe: () => T | null, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 25));
  }
}
