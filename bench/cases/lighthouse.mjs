// lighthouse: Lighthouse 12 (desktop preset) on the dashboard, a monitor page, the monitor form,
// the login screen and a public status page, with a down monitor, an open incident, maintenance
// and a status page, in light and in dark. Target: accessibility 100 on every page in both
// schemes; best practices and performance are printed for information.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import {
  ensureSignedIn,
  freePort,
  onCleanup,
  preflight,
  request,
  root,
  runBench,
  serverComplaints,
  sleep,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import { printEnvironment, printTable, verdict, writeResult } from '../lib/stats.mjs';

const CHROMIUM = process.env.PAGEWATCH_CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWER = {
  email: 'lighthouse@example.com',
  name: 'Lighthouse',
  password: 'lighthouse passphrase 42',
};
const CATEGORIES = ['accessibility', 'best-practices', 'performance'];
const SCHEMES = ['light', 'dark'];

async function api(port, method, url, body) {
  const res = await request(port, url, { method, body });
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status}: ${res.body}`);
  return res.status === 204 ? null : JSON.parse(String(res.body));
}

/** A down monitor with an open incident, a degraded one, one in maintenance, and a status page. */
async function seed(port, target) {
  await ensureSignedIn(port);
  const monitor = (name, extra) =>
    api(port, 'POST', '/api/v1/monitors', {
      type: 'http',
      name,
      interval: 30,
      timeout: 5,
      retries: 0,
      ...extra,
    });
  const website = await monitor('Website', { url: target.url('/site') });
  // Nothing listens on port 9 of loopback: refused at once.
  const checkout = await monitor('Checkout API', { url: 'http://127.0.0.1:9/pay' });
  const search = await monitor('Search', { url: target.url('/search'), degradedThresholdMs: 1 });
  const billing = await monitor('Billing', { url: target.url('/billing') });
  const now = Date.now();
  await api(port, 'POST', '/api/v1/maintenance', {
    title: 'Billing database upgrade',
    timezone: 'UTC',
    scope: { kind: 'monitors', monitorIds: [billing.id] },
    schedule: {
      kind: 'once',
      startsAt: new Date(now - 600_000).toISOString(),
      endsAt: new Date(now + 7_200_000).toISOString(),
    },
  });
  const incident = await api(port, 'POST', '/api/v1/incidents', {
    title: 'Checkout failing for some customers',
    message: 'Payments time out; we are investigating.',
    monitorIds: [checkout.id],
  });
  await api(port, 'POST', `/api/v1/incidents/${incident.id}/updates`, {
    state: 'identified',
    message: 'A payment provider is rate limiting us; a fix is rolling out.',
  });
  await api(port, 'POST', '/api/v1/status-pages', {
    slug: 'acme',
    title: 'Acme Cloud',
    description:
      'Live status of **Acme Cloud**. Questions? Write to [support](mailto:help@example.com).',
    published: true,
    show: { uptimeBars: true, latencyChart: true, currentLatency: true },
    subscriptions: { email: false, webhook: true },
    sections: [
      {
        title: 'Core services',
        components: [
          { monitorId: website.id },
          { monitorId: checkout.id, displayName: 'Checkout' },
          { monitorId: search.id },
        ],
      },
      { title: 'Back office', components: [{ monitorId: billing.id }] },
    ],
  });
  await api(port, 'POST', '/api/v1/users', { ...VIEWER, role: 'viewer' });
  return { checkout: checkout.id };
}

async function sessionCookie(port) {
  const res = await request(port, '/api/v1/auth/login', {
    method: 'POST',
    headers: { authorization: '' },
    body: { email: VIEWER.email, password: VIEWER.password },
  });
  if (res.status !== 200) throw new Error(`login → ${res.status}: ${res.body}`);
  return String([res.headers['set-cookie']].flat()[0]).split(';')[0];
}

/** System Chromium with the flags this closed network needs, a fresh profile and a DevTools port. */
async function startChromium() {
  const port = await freePort();
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${tempDir('lighthouse-profile')}`,
      `--remote-debugging-port=${port}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  onCleanup(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  await new Promise((resolve, reject) => {
    let log = '';
    child.stderr.on('data', (chunk) => {
      log += chunk;
      if (log.includes('DevTools listening on')) resolve();
    });
    void exited.then(() => reject(new Error(`chromium exited:\n${log}`)));
  });
  return port;
}

/**
 * Scores (0–100) and, for a category under 100, the audits that cost it points. The colour
 * scheme is emulated on the tab Lighthouse drives (no Chromium flag sets it in headless mode);
 * the page is asked afterwards which one it saw, and a screenshot of it is kept.
 */
async function audit(browser, url, cookie, scheme, shot) {
  const tab = await browser.newPage();
  try {
    await tab.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    const { lhr } = await lighthouse(
      url,
      {
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      },
      desktopConfig,
      tab,
    );
    const seen = await tab.evaluate(
      () => globalThis.matchMedia('(prefers-color-scheme: dark)').matches,
    );
    if (seen !== (scheme === 'dark'))
      throw new Error(`${url}: emulated ${scheme}, the page saw the other`);
    await tab.screenshot({ path: shot });
    const scores = {};
    const failing = [];
    for (const id of CATEGORIES) {
      const category = lhr.categories[id];
      scores[id] = Math.round((category.score ?? 0) * 100);
      if (id === 'performance') continue;
      for (const ref of category.auditRefs) {
        const a = lhr.audits[ref.id];
        if (ref.weight > 0 && a.score !== null && a.score < 1)
          failing.push(`${id}: ${ref.id} — ${a.title}`);
      }
    }
    return { scores, failing, runtimeError: lhr.runtimeError?.message ?? null };
  } finally {
    await tab.close();
  }
}

await runBench('lighthouse', async () => {
  console.log(
    'lighthouse: desktop preset, 5 pages × light and dark, Lighthouse',
    (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version,
  );
  const env = printEnvironment();
  const server = await preflight();
  const target = await startTarget();
  const port = await freePort();
  const child = spawnServer({
    dataDir: tempDir('lighthouse'),
    port,
    env: { NODE_ENV: 'production' },
  });
  await waitHealthy(port, child);
  const { checkout } = await seed(port, target);
  const cookie = await sessionCookie(port);
  // Every monitor's first checks land (the down one, the degraded one) before anyone looks.
  await sleep(3000);

  const base = `http://127.0.0.1:${port}`;
  const pages = [
    { name: 'login', path: '/login', cookie: null },
    { name: 'dashboard', path: '/', cookie },
    { name: 'monitor', path: `/monitors/${checkout}`, cookie },
    { name: 'monitor form', path: '/monitors/new', cookie },
    { name: 'status page', path: '/status/acme', cookie: null },
  ];
  const rows = [];
  const shots = path.join(root, 'bench/results/lighthouse');
  fs.mkdirSync(shots, { recursive: true });
  const browser = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${await startChromium()}`,
  });
  onCleanup(() => browser.disconnect());
  for (const scheme of SCHEMES) {
    for (const p of pages) {
      const shot = path.join(shots, `${p.name.replace(' ', '-')}-${scheme}.png`);
      const result = await audit(browser, `${base}${p.path}`, p.cookie, scheme, shot);
      rows.push({ page: p.name, scheme, ...result });
      console.log(
        `${p.name} (${scheme}): ${CATEGORIES.map((c) => `${c} ${result.scores[c]}`).join(', ')}`,
      );
      for (const f of result.failing) console.log(`    ${f}`);
      if (result.runtimeError) console.log(`    runtime error: ${result.runtimeError}`);
    }
  }
  const complaints = serverComplaints(child);
  await stopChild(child, 'SIGTERM', 20_000);

  printTable('Lighthouse 12, desktop preset (scores out of 100)', [
    ['page', 'scheme', 'accessibility', 'best practices', 'performance'],
    ...rows.map((r) => [
      r.page,
      r.scheme,
      r.scores.accessibility,
      r.scores['best-practices'],
      r.scores.performance,
    ]),
  ]);
  const met = rows.every((r) => r.scores.accessibility === 100);
  console.log(`\ntarget: accessibility 100 on every page in both schemes: ${verdict(met)}`);
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  writeResult(
    'lighthouse',
    {
      server,
      pages: rows,
      target: { accessibility: 100, met },
      complaints: complaints.slice(0, 50),
    },
    env,
  );
  if (!met) process.exitCode = 1;
});
