// browser-checks: what browser monitors cost and what they do to everything else.
// 1. Saturation: BROWSER monitors (default 150, every 60 s: more than two slots can serve)
//    against a loopback page with a stylesheet, two scripts and an image, at the default
//    browser concurrency (2). Measures checks per minute sustained, CPU (server + Chromium
//    process tree) and RSS per concurrent check.
// 2. Lateness: 1,000 HTTP monitors every 10 s, first alone, then with the browser monitors
//    running again. Goal: HTTP p99 start lateness ≤ 500 ms with browser checks running.
import fs from 'node:fs';
import http from 'node:http';
import { setInterval, clearInterval } from 'node:timers';
import {
  createMonitors,
  ensureSignedIn,
  freePort,
  preflight,
  request,
  runBench,
  serverComplaints,
  sleep,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  buckets,
  byLabel,
  histogramQuantile,
  mb,
  metric,
  ms,
  parseProm,
  printEnvironment,
  printTable,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const NAME = 'browser-checks';
const BROWSER_MONITORS = Number(process.env.BENCH_BROWSER_MONITORS ?? 150);
const HTTP_MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const SATURATION_S = Number(process.env.BENCH_SATURATION_S ?? 120);
const LATENESS_S = Number(process.env.BENCH_LATENESS_S ?? 90);
const LATENESS_BAR_S = 0.5;
const CONCURRENCY = 2;
const LATENESS = 'pagewatch_check_start_lateness_seconds';

// ── the checked site: a small but real page, served from this process ──

const IMAGE = (() => {
  let seed = 11;
  const next = (n) => (seed = (seed * 48271) % 2147483647) % n;
  const shapes = Array.from(
    { length: 400 },
    () =>
      `<circle cx="${next(800)}" cy="${next(400)}" r="${4 + next(30)}" fill="#${next(0xffffff).toString(16).padStart(6, '0')}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400">${shapes.join('')}</svg>`;
})();
const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench shop</title>' +
  '<link rel="stylesheet" href="/site.css"><script defer src="/vendor.js"></script></head><body>' +
  '<header><h1>Bench shop</h1><nav>Home · Products · Basket</nav></header>' +
  `<main><img src="/hero.svg" width="800" height="400" alt="hero"><p>${'Fine goods at fair prices. '.repeat(60)}</p>` +
  '<ul>' +
  Array.from({ length: 40 }, (_, i) => `<li>Product ${i} — €${(i * 3.7).toFixed(2)}</li>`).join(
    '',
  ) +
  '</ul></main><script src="/app.js"></script></body></html>';
const FILES = {
  '/': ['text/html; charset=utf-8', PAGE],
  '/site.css': ['text/css', 'body{font-family:sans-serif;margin:2rem}li{padding:2px 0}'],
  // About as much script work as a small site does at start-up.
  '/vendor.js': [
    'text/javascript',
    'let x=0;for(let i=0;i<2e6;i++)x+=Math.sqrt(i);window.vendor=x;',
  ],
  '/app.js': ['text/javascript', 'document.querySelectorAll("li").forEach(l=>l.dataset.ok="1");'],
  '/hero.svg': ['image/svg+xml', IMAGE],
};

function startSite() {
  let hits = 0;
  const server = http.createServer((req, res) => {
    const file = FILES[(req.url ?? '/').split('?')[0]];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    if (req.url?.startsWith('/?') || req.url === '/') hits += 1;
    res.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' });
    res.end(file[1]);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: (p) => `http://127.0.0.1:${server.address().port}${p}`,
        pages: () => hits,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

// ── /proc: the server and every process under it (Chromium, its renderers, GPU, network) ──

function procStat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // utime, stime, and the reaped children's cutime, cstime: renderers that ended still count.
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    // Chromium's processes share most pages: PSS splits them, RSS counts them in each.
    const pss = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return {
      ppid: Number(f[1]),
      cpu: ticks / 100,
      rss: rss ? Number(rss[1]) * 1024 : 0,
      pss: pss ? Number(pss[1]) * 1024 : 0,
    };
  } catch {
    return null;
  }
}

/** CPU seconds and RSS of the server alone and of the processes it spawned. */
function tree(rootPid) {
  const all = new Map();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    const s = procStat(Number(e));
    if (s) all.set(Number(e), s);
  }
  const self = all.get(rootPid) ?? { cpu: 0, rss: 0 };
  let cpu = 0;
  let rss = 0;
  let pss = 0;
  let processes = 0;
  const stack = [...all.entries()].filter(([, s]) => s.ppid === rootPid).map(([p]) => p);
  while (stack.length > 0) {
    const pid = stack.pop();
    const s = all.get(pid);
    cpu += s.cpu;
    rss += s.rss;
    pss += s.pss;
    processes += 1;
    for (const [p, c] of all) if (c.ppid === pid) stack.push(p);
  }
  return {
    serverCpu: self.cpu,
    serverRss: self.rss,
    childCpu: cpu,
    childRss: rss,
    childPss: pss,
    processes,
  };
}

async function scrape(port) {
  const res = await request(port, '/metrics');
  return { at: Date.now(), samples: parseProm(String(res.body)) };
}
const checksTotal = (s) =>
  Object.values(byLabel(s.samples, 'pagewatch_checks_total', 'outcome')).reduce((a, b) => a + b, 0);

async function createBrowserMonitors(port, count, urlFor) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const res = await request(port, '/api/v1/monitors', {
      method: 'POST',
      body: {
        type: 'browser',
        name: `browser ${i}`,
        url: urlFor(i),
        interval: 60,
        timeout: 20,
        retries: 0,
        requiredText: 'Bench shop',
      },
    });
    if (res.status !== 201) throw new Error(`browser monitor ${i} → ${res.status}: ${res.body}`);
    ids.push(JSON.parse(String(res.body)).id);
  }
  return ids;
}

/** Start-lateness quantiles over a window, from the histogram's deltas. */
async function latenessWindow(port, seconds) {
  const first = await scrape(port);
  await sleep(seconds * 1000);
  const last = await scrape(port);
  const window = buckets(last.samples, LATENESS, first.samples);
  const q = (p) => histogramQuantile(window, p)?.value ?? null;
  return {
    seconds: (last.at - first.at) / 1000,
    started: metric(last.samples, `${LATENESS}_count`) - metric(first.samples, `${LATENESS}_count`),
    p50: q(0.5),
    p99: q(0.99),
    p999: q(0.999),
    summaryP99: metric(last.samples, 'pagewatch_check_start_lateness_recent_seconds', {
      quantile: '0.99',
    }),
  };
}

await runBench(NAME, async () => {
  const env = printEnvironment();
  const server = await preflight();
  const site = await startSite();
  const target = await startTarget();
  const port = await freePort();
  const child = spawnServer({ dataDir: tempDir('browser'), port });
  await waitHealthy(port, child);
  await ensureSignedIn(port);

  // ── 1. saturation ──
  console.log(
    `${NAME}: ${BROWSER_MONITORS} browser monitors every 60 s, browser concurrency ${CONCURRENCY}`,
  );
  const browserIds = await createBrowserMonitors(port, BROWSER_MONITORS, (i) =>
    site.url(`/?m=${i}`),
  );
  await sleep(30_000);
  const s0 = await scrape(port);
  const t0 = tree(child.pid);
  const rssSamples = [];
  const rssTimer = setInterval(() => rssSamples.push(tree(child.pid)), 2000);
  const pages0 = site.pages();
  await sleep(SATURATION_S * 1000);
  clearInterval(rssTimer);
  const s1 = await scrape(port);
  const t1 = tree(child.pid);
  const wall = (s1.at - s0.at) / 1000;
  const completed = checksTotal(s1) - checksTotal(s0);
  const perMinute = (completed / wall) * 60;
  const outcomes = byLabel(s1.samples, 'pagewatch_checks_total', 'outcome');
  const serverCpuPct = (100 * (t1.serverCpu - t0.serverCpu)) / wall;
  const chromiumCpuPct = (100 * (t1.childCpu - t0.childCpu)) / wall;
  const chromiumRss = summarize(rssSamples.map((r) => r.childRss));
  const chromiumPss = summarize(rssSamples.map((r) => r.childPss));
  const serverRss = summarize(rssSamples.map((r) => r.serverRss));
  const procs = summarize(rssSamples.map((r) => r.processes));
  printTable(`saturation over ${wall.toFixed(1)} s`, [
    ['measure', 'value'],
    ['browser checks completed', completed],
    ['checks per minute sustained', perMinute.toFixed(1)],
    ['pages served by the site', site.pages() - pages0],
    ['seconds per check per slot', ((wall * CONCURRENCY) / completed).toFixed(2)],
    ['server (Node) CPU, % of one core', `${serverCpuPct.toFixed(1)} %`],
    ['Chromium tree CPU, % of one core', `${chromiumCpuPct.toFixed(1)} %`],
    [
      'CPU per concurrent check, % of one core',
      `${((serverCpuPct + chromiumCpuPct) / CONCURRENCY).toFixed(1)} %`,
    ],
    ['Chromium tree RSS mean / peak', `${mb(chromiumRss.mean)} / ${mb(chromiumRss.max)}`],
    ['Chromium tree PSS mean / peak', `${mb(chromiumPss.mean)} / ${mb(chromiumPss.max)}`],
    ['Chromium PSS per concurrent check (mean / 2)', mb(chromiumPss.mean / CONCURRENCY)],
    ['server RSS mean / peak', `${mb(serverRss.mean)} / ${mb(serverRss.max)}`],
    ['Chromium processes mean / max', `${procs.mean.toFixed(1)} / ${procs.max}`],
  ]);
  console.log(`outcomes so far: ${JSON.stringify(outcomes)}`);

  // ── 2. HTTP lateness, alone and beside browser checks ──
  for (const id of browserIds) {
    await request(port, `/api/v1/monitors/${id}/pause`, { method: 'POST' });
  }
  const created = await createMonitors(port, HTTP_MONITORS, (i) => target.url(`/m/${i}`), {
    interval: 10,
    timeout: 5,
  });
  console.log(`created ${HTTP_MONITORS} HTTP monitors in ${(created.ms / 1000).toFixed(1)} s`);
  await sleep(20_000);
  const alone = await latenessWindow(port, LATENESS_S);
  for (const id of browserIds) {
    await request(port, `/api/v1/monitors/${id}/resume`, { method: 'POST' });
  }
  await sleep(20_000);
  const beside = await latenessWindow(port, LATENESS_S);
  const sMixed = await scrape(port);
  printTable(`start lateness of ${HTTP_MONITORS} HTTP monitors every 10 s`, [
    ['', 'checks started', 'p50', 'p99', 'p99.9', 'summary p99 (10 min)'],
    ...[
      ['HTTP alone', alone],
      [`with ${BROWSER_MONITORS} browser monitors`, beside],
    ].map(([label, w]) => [
      label,
      w.started,
      ms(w.p50 * 1000),
      ms(w.p99 * 1000),
      ms(w.p999 * 1000),
      ms(w.summaryP99 * 1000),
    ]),
  ]);
  const overheadMs = (beside.p99 - alone.p99) * 1000;
  const met = beside.p99 <= LATENESS_BAR_S;
  console.log(`browser checks add ${ms(overheadMs)} to the HTTP p99 start lateness`);
  console.log(`target: HTTP p99 lateness ≤ 500 ms with browser checks: ${verdict(met)}`);
  console.log(
    `event loop p99 now: ${ms(metric(sMixed.samples, 'nodejs_eventloop_lag_p99_seconds') * 1000)}`,
  );

  const complaints = serverComplaints(child);
  await stopChild(child, 'SIGTERM', 30_000);
  await site.close();
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  writeResult(
    NAME,
    {
      settings: { BROWSER_MONITORS, HTTP_MONITORS, SATURATION_S, LATENESS_S, CONCURRENCY },
      server,
      saturation: {
        seconds: wall,
        completed,
        perMinute,
        serverCpuPercent: serverCpuPct,
        chromiumCpuPercent: chromiumCpuPct,
        chromiumRssBytes: chromiumRss,
        chromiumPssBytes: chromiumPss,
        serverRssBytes: serverRss,
        processes: procs,
        outcomes,
      },
      lateness: { alone, beside, overheadMs },
      met,
      complaints: complaints.slice(0, 50),
    },
    env,
  );
});
