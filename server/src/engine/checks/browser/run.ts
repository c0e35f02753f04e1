import { performance } from 'node:perf_hooks';
import type {
  BrowserConsoleEntry,
  BrowserFailedRequest,
  BrowserMeasurements,
  BrowserViewport,
  BrowserWaitFor,
  CheckErrorCode,
  Header,
} from '@pagewatch/contract';
import { browserViewports } from '@pagewatch/contract';
import type { BrowserContext, Page, Response } from 'playwright-core';
import type { CheckContext, CheckRun } from '../types.js';
import { noPhases } from '../types.js';
import { takeScreenshot } from './evidence.js';
import {
  armProbe,
  lcpSeen,
  installProbe,
  nextPaints,
  probeDone,
  PROBE_KEY,
  readTimings,
  type PageTimings,
} from './measure.js';
import { BrowserUnavailable, type BrowserLease, type BrowserPool } from './pool.js';
import { indefiniteArticle } from '../../../domain/grammar.js';

export interface BrowserCheckSpec {
  url: string;
  viewport: BrowserViewport;
  waitFor: BrowserWaitFor;
  waitSelector: string;
  requiredText: string;
  requiredSelector: string;
  lcpThresholdMs: number | null;
  /** The load time (or time to the wait condition) past which the page is degraded. */
  degradedThresholdMs: number | null;
  failOnJsError: boolean;
  /** The credential as sent: the password opened from its sealed copy for this check. */
  basicAuth: { username: string; password: string } | null;
  headers: Header[];
  timeoutMs: number;
}

/** Kept back from the navigation budget so a hung page can still be measured and photographed. */
const EVIDENCE_RESERVE_MS = 2500;
/** After the timeout, the context is closed; after this much more, the browser is killed. */
const HARD_GRACE_MS = 4000;
const CLOSE_WAIT_MS = 3000;
const MAX_LISTED = 20;
const MAX_TEXT = 500;
const WATERFALL_TOP = 10;

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/130.0.0.0 Mobile Safari/537.36 Pagewatch';

class Failure {
  constructor(
    readonly code: CheckErrorCode,
    readonly message: string,
  ) {}
}

/** What the page did while it loaded, gathered from Playwright's events. */
class Observed {
  requests = 0;
  failed: BrowserFailedRequest[] = [];
  console: BrowserConsoleEntry[] = [];
  exceptions = 0;
  /** A request to a place browser checks may not go (Pagewatch itself, a non-web scheme). */
  blocked: string | null = null;
  pageCrashed = false;
}

/** The shared browser and the guard against Pagewatch's own origin, made once per process. */
export interface BrowserEngine {
  pool: BrowserPool;
  /** Whether a URL is Pagewatch's own, which pages may not reach. */
  forbidden: (url: URL) => boolean;
}

/** Loads the page in a fresh context of the shared Chromium and measures it; never throws. */
export async function runBrowserCheck(
  spec: BrowserCheckSpec,
  ctx: CheckContext,
  engine: BrowserEngine | undefined,
): Promise<CheckRun> {
  if (!engine) {
    return failedRun(
      new Failure('browser_unavailable', 'Browser checks are not enabled in this process'),
    );
  }
  const { pool, forbidden } = engine;
  const target = new URL(spec.url);
  if (forbidden(target)) {
    return failedRun(
      new Failure('browser_load_failed', 'Browser checks may not load Pagewatch’s own address'),
    );
  }
  let lease: BrowserLease;
  try {
    lease = await pool.lease(ctx.signal);
  } catch (err) {
    if (err instanceof BrowserUnavailable) {
      return failedRun(new Failure('browser_unavailable', err.message));
    }
    return failedRun(new Failure('timeout', 'The check was stopped before a browser was free'));
  }
  try {
    return await checkPage(spec, ctx, lease, pool, forbidden);
  } finally {
    lease.done();
  }
}

async function checkPage(
  spec: BrowserCheckSpec,
  ctx: CheckContext,
  lease: BrowserLease,
  pool: BrowserPool,
  forbidden: (url: URL) => boolean,
): Promise<CheckRun> {
  const started = performance.now();
  const remaining = (reserve = 0): number =>
    Math.max(1, spec.timeoutMs - reserve - (performance.now() - started));
  const seen = new Observed();
  let context: BrowserContext | null = null;
  let hung = false;
  // The hard deadline: close the context (ends every pending page call), and if even that
  // does not answer, kill the browser so the next check gets a fresh one.
  const stop = (): void => {
    hung = true;
    const closing = context?.close().catch(() => undefined);
    const killer = setTimeout(() => pool.kill(lease.handle, 'a page did not close'), CLOSE_WAIT_MS);
    void Promise.resolve(closing).finally(() => clearTimeout(killer));
  };
  const hard = setTimeout(stop, spec.timeoutMs + HARD_GRACE_MS);
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    context = await newContext(lease, spec);
    await context.route('**/*', (route) => {
      const request = route.request();
      if (!isAllowed(request.url(), forbidden)) {
        // The page itself going there fails the check; a resource from there (a badge) is
        // only refused, and shows as a failed request.
        if (request.isNavigationRequest() && !request.frame().parentFrame()) {
          seen.blocked ??= request.url();
        }
        return route.abort('blockedbyclient');
      }
      return route.continue();
    });
    await context.addInitScript(installProbe, PROBE_KEY);
    const page = await context.newPage();
    watch(page, seen, forbidden);

    const navStart = performance.now();
    let failure: Failure | null = null;
    let response: Response | null = null;
    try {
      response = await page.goto(spec.url, {
        waitUntil: spec.waitFor === 'networkidle' ? 'networkidle' : 'load',
        timeout: remaining(EVIDENCE_RESERVE_MS),
      });
      if (response === null) failure = new Failure('browser_load_failed', 'No page came back');
      else if (response.status() >= 400) {
        failure = new Failure(
          'browser_load_failed',
          `The page answered HTTP ${response.status()} ${response.statusText()}`.trim(),
        );
      }
    } catch (err) {
      if (await browserGone(lease, seen, err)) throw err;
      failure = navigationFailure(err, spec, seen);
    }
    // A redirect is followed inside Chromium before any route sees it: if one led to
    // Pagewatch, the check fails and nothing of that page is kept.
    if (seen.blocked !== null) failure = blockedFailure(seen.blocked);
    if (failure === null && spec.waitFor === 'selector') {
      failure = await waitVisible(page, spec.waitSelector, remaining(EVIDENCE_RESERVE_MS));
    }
    const deliveredMs = performance.now() - navStart;
    if (failure === null) failure = await requiredContent(page, spec);
    if (failure === null) {
      // LCP stops at the first input: let the paint that follows the load event land first.
      await bounded(page.evaluate(nextPaints), 1000);
      // The LCP entry reaches the observer a moment after the paint, later on a busy machine;
      // a page that paints nothing has none, so the wait is short and bounded.
      await bounded(
        page.waitForFunction(lcpSeen, PROBE_KEY, {
          timeout: Math.max(1, Math.min(1000, remaining(EVIDENCE_RESERVE_MS))),
          polling: 50,
        }),
        1100,
      );
      await interactionProbe(page, Math.min(1500, remaining(EVIDENCE_RESERVE_MS)));
    }

    const timings = await bounded(
      page.evaluate(readTimings, { key: PROBE_KEY, top: WATERFALL_TOP }),
      1500,
    );
    const screenshot =
      seen.blocked === null ? await takeScreenshot(page, Math.min(2000, remaining())) : null;
    if (seen.pageCrashed || !lease.browser.isConnected()) throw new Error('browser gone');
    const measurements = measurementsOf(timings, seen, page, response);
    return outcomeOf(spec, failure, seen, timings, response, measurements, screenshot, deliveredMs);
  } catch (err) {
    if (await browserGone(lease, seen, err)) {
      return failedRun(
        new Failure('browser_crashed', 'Chromium crashed during the check; it has been restarted'),
      );
    }
    if (hung) {
      return failedRun(
        new Failure(
          'timeout',
          `The page did not respond within ${seconds(spec.timeoutMs)}; it was closed`,
        ),
      );
    }
    return failedRun(new Failure('browser_load_failed', firstLine(err)));
  } finally {
    clearTimeout(hard);
    ctx.signal.removeEventListener('abort', stop);
    if (context) await bounded(context.close(), CLOSE_WAIT_MS);
  }
}

function newContext(lease: BrowserLease, spec: BrowserCheckSpec): Promise<BrowserContext> {
  const phone = spec.viewport === 'phone';
  return lease.browser.newContext({
    viewport: browserViewports[spec.viewport],
    deviceScaleFactor: 1,
    isMobile: phone,
    hasTouch: phone,
    ...(phone ? { userAgent: PHONE_UA } : {}),
    acceptDownloads: false,
    permissions: [],
    serviceWorkers: 'block',
    ignoreHTTPSErrors: false,
    extraHTTPHeaders: Object.fromEntries(spec.headers.map((h) => [h.name, h.value])),
    ...(spec.basicAuth
      ? {
          httpCredentials: {
            username: spec.basicAuth.username,
            password: spec.basicAuth.password,
            // Only the checked site gets the credentials, not every third party it loads.
            origin: new URL(spec.url).origin,
          },
        }
      : {}),
  });
}

/** Web schemes only, and never Pagewatch itself (its API, its cookies' origin). */
function isAllowed(url: string, forbidden: (url: URL) => boolean): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return true;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  return !forbidden(parsed);
}

function watch(page: Page, seen: Observed, forbidden: (url: URL) => boolean): void {
  const main = (r: { frame(): unknown; isNavigationRequest(): boolean }): boolean => {
    try {
      return r.isNavigationRequest() && r.frame() === page.mainFrame();
    } catch {
      return false;
    }
  };
  page.on('request', (req) => {
    seen.requests += 1;
    // Redirects are followed inside Chromium without passing the route: refuse them here.
    if (req.redirectedFrom() && main(req) && !isAllowed(req.url(), forbidden)) {
      seen.blocked ??= req.url();
    }
  });
  // A request that failed by status may also be reported aborted afterwards: list it once.
  const failedByStatus = new WeakSet<object>();
  page.on('response', (res) => {
    if (res.status() >= 400 && !main(res.request())) {
      failedByStatus.add(res.request());
      push(seen.failed, {
        url: clip(res.url()),
        type: res.request().resourceType(),
        status: res.status(),
        error: null,
      });
    }
  });
  page.on('requestfailed', (req) => {
    if (main(req) || failedByStatus.has(req)) return;
    push(seen.failed, {
      url: clip(req.url()),
      type: req.resourceType(),
      status: null,
      error: isAllowed(req.url(), forbidden)
        ? (req.failure()?.errorText ?? 'failed')
        : 'Refused: browser checks may not load this address',
    });
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') push(seen.console, { kind: 'error', text: clip(msg.text()) });
  });
  page.on('pageerror', (err) => {
    seen.exceptions += 1;
    push(seen.console, { kind: 'exception', text: clip(err.message || String(err)) });
  });
  page.on('crash', () => (seen.pageCrashed = true));
  // Downloads are refused by the context; dialogs would block the page until the deadline.
  page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
}

function navigationFailure(err: unknown, spec: BrowserCheckSpec, seen: Observed): Failure {
  const message = firstLine(err);
  if (seen.blocked !== null) return blockedFailure(seen.blocked);
  if (err instanceof Error && err.name === 'TimeoutError') {
    const what = spec.waitFor === 'networkidle' ? 'go quiet on the network' : 'finish loading';
    return new Failure('timeout', `The page did not ${what} within ${seconds(spec.timeoutMs)}`);
  }
  const net = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  if (net === 'ERR_INVALID_AUTH_CREDENTIALS') {
    return new Failure(
      'browser_load_failed',
      spec.basicAuth
        ? 'The site refused the user name and password (HTTP 401)'
        : 'The page asks for a user name and password (HTTP 401)',
    );
  }
  const code: CheckErrorCode =
    net === 'ERR_NAME_NOT_RESOLVED'
      ? 'dns_not_found'
      : net === 'ERR_CONNECTION_REFUSED'
        ? 'connect_refused'
        : net === 'ERR_CERT_DATE_INVALID'
          ? 'tls_cert_expired'
          : net === 'ERR_CERT_COMMON_NAME_INVALID'
            ? 'tls_hostname_mismatch'
            : net?.startsWith('ERR_CERT_')
              ? 'tls_cert_untrusted'
              : net === 'ERR_TOO_MANY_REDIRECTS'
                ? 'too_many_redirects'
                : 'browser_load_failed';
  return new Failure(code, net ? `The page could not be loaded: ${net}` : message);
}

const blockedFailure = (url: string): Failure =>
  new Failure(
    'browser_load_failed',
    `The page tried to reach ${clip(url, 120)}, which browser checks may not load`,
  );

async function waitVisible(page: Page, selector: string, timeout: number): Promise<Failure | null> {
  try {
    await page.locator(selector).first().waitFor({ state: 'visible', timeout });
    return null;
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError') {
      return new Failure(
        'browser_element_missing',
        `“${clip(selector, 100)}” did not show in time`,
      );
    }
    return new Failure('browser_element_missing', `“${clip(selector, 100)}”: ${firstLine(err)}`);
  }
}

async function requiredContent(page: Page, spec: BrowserCheckSpec): Promise<Failure | null> {
  if (spec.requiredSelector !== '') {
    const count = await bounded(page.locator(spec.requiredSelector).count(), 2000).catch(() => 0);
    if (!count) {
      return new Failure(
        'browser_element_missing',
        `The page has no element matching “${clip(spec.requiredSelector, 100)}”`,
      );
    }
  }
  if (spec.requiredText !== '') {
    const text = await bounded(
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { body?: { innerText: string } } }).document.body
            ?.innerText ?? '',
      ),
      2000,
    ).catch(() => '');
    if (!text?.includes(spec.requiredText)) {
      return new Failure(
        'keyword_missing',
        `The page does not show “${clip(spec.requiredText, 100)}”`,
      );
    }
  }
  return null;
}

/** A key press with no default action, timed to the next frame: what a visitor's input would wait. */
async function interactionProbe(page: Page, timeout: number): Promise<void> {
  try {
    await page.evaluate(armProbe, PROBE_KEY);
    await page.keyboard.press('Shift');
    await page.waitForFunction(probeDone, PROBE_KEY, { timeout, polling: 50 });
  } catch {
    // Not measurable (the page is busy or gone): the proxy stays null.
  }
}

function measurementsOf(
  t: PageTimings | null,
  seen: Observed,
  page: Page,
  response: Response | null,
): BrowserMeasurements {
  let redirects = 0;
  for (let r = response?.request().redirectedFrom(); r; r = r.redirectedFrom()) redirects += 1;
  return {
    domContentLoadedMs: t?.nav?.domContentLoaded ?? null,
    loadMs: t?.nav?.load ?? null,
    lcpMs: t?.lcp ?? null,
    cls: t?.cls ?? null,
    inpMs: t?.inp ?? null,
    transferBytes: (t?.nav?.transferSize ?? 0) + (t?.resourceBytes ?? 0),
    requests: seen.requests,
    finalUrl: clip(page.url(), 2048) || null,
    redirects,
    failedRequests: seen.failed,
    console: seen.console,
    waterfall: (t?.slowest ?? []).map((r) => ({ ...r, url: clip(r.url) })),
  };
}

function outcomeOf(
  spec: BrowserCheckSpec,
  failure: Failure | null,
  seen: Observed,
  t: PageTimings | null,
  response: Response | null,
  measurements: BrowserMeasurements,
  screenshot: Uint8Array | null,
  deliveredMs: number,
): CheckRun {
  const nav = t?.nav ?? null;
  const latency = spec.waitFor === 'load' && nav?.load != null ? nav.load : deliveredMs;
  const base = {
    phases: nav
      ? { dns: nav.dns, connect: nav.connect, tls: nav.tls, ttfb: nav.ttfb, download: nav.download }
      : noPhases,
    httpStatus: response?.status() ?? null,
    responseSize: measurements.transferBytes > 0 ? measurements.transferBytes : null,
    certExpiresAt: null,
    browser: { measurements, screenshot },
  };
  const firstException = seen.console.find((c) => c.kind === 'exception');
  if (failure === null && spec.failOnJsError && firstException) {
    failure = new Failure(
      'browser_js_error',
      `Uncaught exception: ${clip(firstException.text, 200)}`,
    );
  }
  if (failure !== null) {
    return {
      ...base,
      outcome: 'down',
      latencyMs: null,
      errorCode: failure.code,
      errorMessage: failure.message,
    };
  }
  const latencyMs = Math.round(latency * 10) / 10;
  const slow: string[] = [];
  if (spec.lcpThresholdMs !== null && (t?.lcp ?? 0) > spec.lcpThresholdMs) {
    slow.push(
      `Largest Contentful Paint ${Math.round(t!.lcp!)} ms is over ${spec.lcpThresholdMs} ms`,
    );
  }
  if (spec.degradedThresholdMs !== null && latencyMs > spec.degradedThresholdMs) {
    slow.push(`Load ${Math.round(latencyMs)} ms is over ${spec.degradedThresholdMs} ms`);
  }
  let degraded: Failure | null = null;
  if (slow.length > 0) degraded = new Failure('degraded_latency', slow.join('; '));
  else if (seen.failed.length > 0) {
    const first = seen.failed[0]!;
    const more = seen.failed.length > 1 ? ` and ${seen.failed.length - 1} more` : '';
    degraded = new Failure(
      'browser_resource_failed',
      `${indefiniteArticle(first.type) === 'an' ? 'An' : 'A'} ${first.type} failed (${first.status ?? first.error}): ${clip(first.url, 120)}${more}`,
    );
  }
  return {
    ...base,
    outcome: degraded ? 'degraded' : 'up',
    latencyMs,
    errorCode: degraded?.code ?? null,
    errorMessage: degraded?.message ?? null,
  };
}

/** Whether the browser or the page died under the check (the events may trail the error a bit). */
async function browserGone(lease: BrowserLease, seen: Observed, err: unknown): Promise<boolean> {
  const gone = (): boolean =>
    seen.pageCrashed || lease.handle.crashed || !lease.browser.isConnected();
  if (gone()) return true;
  if (!/closed|crash|disconnect/i.test(firstLine(err))) return false;
  await new Promise((resolve) => setTimeout(resolve, 500));
  return gone();
}

function failedRun(failure: Failure): CheckRun {
  return {
    outcome: 'down',
    latencyMs: null,
    phases: noPhases,
    httpStatus: null,
    errorCode: failure.code,
    errorMessage: failure.message,
    responseSize: null,
    certExpiresAt: null,
  };
}

/** Resolves with null instead of waiting past `ms` (a hung page must not hold the check). */
async function bounded<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work.catch(() => null),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function push<T>(list: T[], item: T): void {
  if (list.length < MAX_LISTED) list.push(item);
}

const clip = (text: string, max = MAX_TEXT): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

const firstLine = (err: unknown): string =>
  clip((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error', 300);
