// dashboard-100k: the dashboard at 100,000 monitors (issue 14). Time from sign-in to the first
// rows in Chromium, the size and time of a page of GET /api/v1/monitors/rows, and the check start
// lateness (p99) of a steady load of checks, quiet and while ten dashboards load over and over;
// the old full list (GET /api/v1/monitors) under the same load for comparison.
// Targets: first rows ≤ 1 s; lateness p99 does not move while dashboards load.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import {
  ensureSignedIn,
  freePort,
  now,
  preflight,
  request,
  runBench,
  shareSignIn,
  sleep,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  buckets,
  histogramQuantile,
  kb,
  metric,
  ms,
  parseProm,
  printEnvironment,
  printTable,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 100_000);
// Checked every 10 s against the loopback target; the rest are paused (in the list, not run).
const ACTIVE = Number(process.env.BENCH_ACTIVE ?? 1000);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 30);
const DASHBOARDS = 10;
// Each dashboard loads again this long after its last load finished.
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);
const SIGN_INS = 5;
const FULL_LIST = process.env.BENCH_FULL_LIST !== '0';
const OWNER = { email: 'bench@example.com', password: 'bench passphrase 0123' };
const LATENESS = 'pagewatch_check_start_lateness_seconds';
const TARGET_FIRST_ROWS_MS = 1000;

/** Creates the monitors through the API, eight at a time over keep-alive. */
async function seed(port, urlFor) {
  await ensureSignedIn(port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let next = 0;
  const t0 = now();
  const worker = async () => {
    while (next < MONITORS) {
      const i = next++;
      const body = {
        type: 'http',
        name: `svc ${String(i).padStart(6, '0')}`,
        url: urlFor(i),
        interval: 10,
        timeout: 5,
        retries: 1,
        tags: [i % 2 ? 'eu' : 'us', `team-${i % 20}`],
        paused: i >= ACTIVE,
      };
      const res = await request(port, '/api/v1/monitors', { method: 'POST', body, agent });
      if (res.status !== 201) throw new Error(`create ${i} → ${res.status}: ${res.body}`);
      if (i % 10_000 === 0) console.log(`  ${i} created, ${((now() - t0) / 1000).toFixed(0)} s`);
    }
  };
  try {
    await Promise.all(Array.from({ length: 8 }, worker));
  } finally {
    agent.destroy();
  }
  return now() - t0;
}

const scrape = async (port) => parseProm(String((await request(port, '/metrics')).body));

/** Lateness p99 and event-loop figures over a window in which `load` runs until `stop`. */
async function windowWith(port, label, load) {
  const before = await scrape(port);
  const stop = { at: now() + WINDOW_S * 1000 };
  const loads = await load(stop);
  const after = await scrape(port);
  const bs = buckets(after, LATENESS, before);
  const q = (p) => histogramQuantile(bs, p);
  return {
    label,
    started: bs.at(-1)?.count ?? 0,
    latenessP50: q(0.5),
    latenessP99: q(0.99),
    loopP99: metric(after, 'nodejs_eventloop_lag_p99_seconds'),
    loopMax: metric(after, 'nodejs_eventloop_lag_max_seconds'),
    ...loads,
  };
}

/** One dashboard load as the SPA does it: the first page, then two more as if scrolled. */
async function dashboardLoad(port, agent) {
  const headers = { 'accept-encoding': 'gzip' };
  const first = await request(port, '/api/v1/monitors/rows?limit=100&sort=status', {
    headers,
    agent,
  });
  if (first.status !== 200) throw new Error(`rows → ${first.status}`);
  const raw = gunzipSync(first.body);
  let cursor = JSON.parse(String(raw)).nextCursor;
  const more = [];
  for (let i = 0; i < 2 && cursor; i++) {
    const res = await request(
      port,
      `/api/v1/monitors/rows?limit=200&sort=status&cursor=${encodeURIComponent(cursor)}`,
      { headers, agent },
    );
    more.push(res.ms);
    cursor = JSON.parse(String(gunzipSync(res.body))).nextCursor;
  }
  return { firstMs: first.ms, gzipBytes: first.body.length, rawBytes: raw.length, more };
}

function clients(port, stop, once) {
  return Promise.all(
    Array.from({ length: DASHBOARDS }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const out = [];
      try {
        while (now() < stop.at) {
          out.push(await once(port, agent));
          await sleep(THINK_MS);
        }
      } finally {
        agent.destroy();
      }
      return out;
    }),
  ).then((all) => all.flat());
}

async function fullListLoad(port, agent) {
  const res = await request(port, '/api/v1/monitors', {
    headers: { 'accept-encoding': 'gzip' },
    agent,
  });
  if (res.status !== 200) throw new Error(`list → ${res.status}`);
  return { firstMs: res.ms, gzipBytes: res.body.length, rawBytes: gunzipSync(res.body).length };
}

/** Sign-in in Chromium to the first dashboard row, with a fresh browser context each time. */
async function browserFirstRows(port) {
  const browser = await chromium.launch({
    executablePath: process.env.PAGEWATCH_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const times = [];
  try {
    for (let i = 0; i < SIGN_INS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${port}/login`);
      await page.getByLabel('Email').fill(OWNER.email);
      await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
      const t0 = now();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('monitor-row').first().waitFor({ timeout: 30_000 });
      times.push(now() - t0);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return summarize(times);
}

const latency = (q) => (q ? ms(q.value * 1000) : '–');

await runBench('dashboard-100k', async () => {
  console.log(`dashboard-100k: ${MONITORS} monitors, ${ACTIVE} checked every 10 s`);
  const env = printEnvironment();
  const server = await preflight();
  if (!server.spaServed) throw new Error('build the web app first (npm run build)');
  const target = await startTarget();
  const dataDir = tempDir('dashboard-100k');
  const seedPort = await freePort();
  const seeder = spawnServer({ dataDir, port: seedPort });
  await waitHealthy(seedPort, seeder);
  const seedMs = await seed(seedPort, (i) => target.url(`/m/${i}`));
  console.log(`created ${MONITORS} monitors in ${(seedMs / 1000).toFixed(0)} s; restarting…`);
  await stopChild(seeder, 'SIGTERM', 20_000);
  // A restart, as after an upgrade: the read model is filled at start, before the first check.
  const port = await freePort();
  shareSignIn(seedPort, port);
  const t0 = now();
  const child = spawnServer({ dataDir, port });
  const startMs = (await waitHealthy(port, child)) - t0;
  const cold = await request(port, '/api/v1/monitors/rows?limit=100');
  console.log(`healthy ${ms(startMs)} after start; first rows request then ${ms(cold.ms)}`);
  await sleep(20_000);

  const windows = [];
  windows.push(await windowWith(port, 'quiet', async (stop) => (await sleep(stop.at - now()), {})));
  console.log('ten dashboards loading GET /api/v1/monitors/rows over and over…');
  const rows = await windowWith(port, `${DASHBOARDS} dashboards, paged rows`, async (stop) => ({
    loads: await clients(port, stop, dashboardLoad),
  }));
  windows.push(rows);
  console.log('signing in with Chromium…');
  const firstRows = await browserFirstRows(port);
  let full = null;
  if (FULL_LIST) {
    console.log('ten clients loading the full list GET /api/v1/monitors over and over…');
    full = await windowWith(port, `${DASHBOARDS} clients, full list`, async (stop) => ({
      loads: await clients(port, stop, fullListLoad),
    }));
    windows.push(full);
  }
  await stopChild(child, 'SIGTERM', 20_000);

  printTable('check start lateness while the dashboard loads', [
    ['window', 'checks started', 'lateness p50', 'lateness p99', 'loop p99', 'loop max'],
    ...windows.map((w) => [
      w.label,
      w.started,
      latency(w.latenessP50),
      latency(w.latenessP99),
      ms(w.loopP99 * 1000),
      ms(w.loopMax * 1000),
    ]),
  ]);
  const answers = [rows, full].filter(Boolean).map((w) => {
    const first = summarize(w.loads.map((l) => l.firstMs));
    return {
      label: w.label,
      n: w.loads.length,
      first,
      gzip: w.loads[0]?.gzipBytes,
      raw: w.loads[0]?.rawBytes,
    };
  });
  const nextPages = summarize(rows.loads.flatMap((l) => l.more));
  printTable(
    `answers (${DASHBOARDS} clients, each loading again ${THINK_MS} ms after the last, gzip)`,
    [
      ['what', 'answers', 'p50', 'p99', 'gzip', 'raw'],
      ...answers.map((a) => [
        a.label,
        a.n,
        ms(a.first.p50),
        ms(a.first.p99),
        kb(a.gzip),
        kb(a.raw),
      ]),
      ['  next pages (200 rows)', nextPages.n ?? '', ms(nextPages.p50), ms(nextPages.p99), '', ''],
    ],
  );
  printTable(`sign-in → first rows in Chromium (${SIGN_INS} fresh contexts)`, [
    ['p50', 'max', 'target'],
    [
      ms(firstRows.p50),
      ms(firstRows.max),
      `≤ ${TARGET_FIRST_ROWS_MS} ms: ${verdict(firstRows.max <= TARGET_FIRST_ROWS_MS)}`,
    ],
  ]);
  writeResult(
    'dashboard-100k',
    {
      monitors: MONITORS,
      active: ACTIVE,
      windowS: WINDOW_S,
      seedMs,
      startMs,
      coldFirstPageMs: cold.ms,
      thinkMs: THINK_MS,
      // Every load's timing would swamp the file.
      windows: windows.map(({ loads: _loads, ...w }) => w),
      answers,
      nextPages,
      firstRows,
    },
    env,
  );
});
