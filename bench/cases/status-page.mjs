// status-page: a published page of 50 components (90 days of history) served while 1,000
// monitors are checked every 10 s against a loopback target. Measures, with Accept-Encoding
// "gzip, br": cached throughput and latency under autocannon, the page's gzip size, and the
// time to first byte of an uncached render (a monitor edit invalidates it, then one request).
// Targets: ≥ 5,000 req/s, p99 ≤ 20 ms, HTML+CSS ≤ 30 KB gzip, uncached TTFB p50/p99 ≤ 15 ms.
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import {
  createMonitors,
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
  kb,
  ms,
  printEnvironment,
  printTable,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const COMPONENTS = 50;
const INTERVAL_S = 10;
const WARMUP_S = 20;
const LOAD_S = Number(process.env.BENCH_LOAD_S ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const UNCACHED = 200;
const SLUG = 'bench';
const ENCODING = 'gzip, br';
const DAY = 86_400_000;
const TARGET = { rps: 5000, p99Ms: 20, gzipBytes: 30 * 1024, ttfbMs: 15 };
// BENCH_CHART=1: the page also shows the 24-hour response time chart and current latency.
const CHART = process.env.BENCH_CHART === '1';
const HOUR = 3_600_000;

const zeroColumns = ['dns', 'connect', 'tls', 'ttfb', 'download'].flatMap((p) => [
  `${p}_sum_us`,
  `${p}_count`,
]);

/**
 * The page and 89 past days of rollups, written into the server's SQLite file (the editor API
 * is another module's; the server reads pages from the tables, so this is what it would see).
 */
function seedPage(dataDir, monitorIds) {
  const db = new Database(path.join(dataDir, 'pagewatch.db'));
  db.pragma('busy_timeout = 10000');
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  const thisHour = Math.floor(now / HOUR) * HOUR;
  const hourly = db.prepare(
    `insert or ignore into rollup_hour (monitor_id, bucket, checks, up, degraded, down, latency_sum_us,
     latency_count, latency_min_us, latency_max_us, ${zeroColumns.join(', ')})
     values (?, ?, 360, 360, 0, 0, ?, 360, 40000, 400000, ${zeroColumns.map(() => '0').join(', ')})`,
  );
  const rollup = db.prepare(
    `insert or ignore into rollup_day (monitor_id, bucket, checks, up, degraded, down, latency_sum_us,
     latency_count, latency_min_us, latency_max_us, ${zeroColumns.join(', ')})
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${zeroColumns.map(() => '0').join(', ')})`,
  );
  db.transaction(() => {
    const page = db
      .prepare(
        `insert into status_pages (slug, title, description, show, theme, subscriptions, footer,
         published, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      )
      .run(
        SLUG,
        'Bench Cloud',
        'The status of **Bench Cloud**: [support](https://example.com/support).',
        JSON.stringify({ uptimeBars: true, latencyChart: CHART, currentLatency: CHART }),
        JSON.stringify({ mode: 'auto', accent: '#2563eb' }),
        JSON.stringify({ email: false, webhook: false, emailChannelId: null }),
        '© Bench Cloud',
        now,
        now,
      ).lastInsertRowid;
    for (let s = 0; s < 5; s++) {
      const section = db
        .prepare('insert into status_page_sections (page_id, position, title) values (?, ?, ?)')
        .run(page, s, `Region ${s + 1}`).lastInsertRowid;
      for (let c = 0; c < COMPONENTS / 5; c++) {
        const monitorId = monitorIds[s * 10 + c];
        db.prepare(
          `insert into status_page_components (page_id, section_id, position, monitor_id,
           display_name, description) values (?, ?, ?, ?, ?, '')`,
        ).run(page, section, c, monitorId, `Service ${s + 1}.${c + 1}`);
        for (let h = 1; h < 24; h++)
          hourly.run(
            monitorId,
            thisHour - h * HOUR,
            360 * (80_000 + ((monitorId * 13 + h) % 9) * 5_000),
          );
        for (let d = 1; d < 90; d++) {
          const down = (monitorId * 7 + d) % 23 === 0 ? 12 : 0;
          rollup.run(
            monitorId,
            today - d * DAY,
            8640,
            8640 - down,
            0,
            down,
            8640 * 90_000,
            8640 - down,
            40_000,
            400_000,
          );
        }
      }
    }
  })();
  db.close();
}

/** One request on its own connection; time to the first byte of the response. */
function ttfb(port, urlPath) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        agent: false,
        headers: { 'accept-encoding': ENCODING },
      },
      (res) => {
        const first = performance.now() - t0;
        // The server's own split of the render: `db;dur=1.23, render;dur=0.45`.
        const timing = Object.fromEntries(
          [...String(res.headers['server-timing'] ?? '').matchAll(/(\w+);dur=([\d.]+)/g)].map(
            (m) => [m[1], Number(m[2])],
          ),
        );
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: first, timing }));
      },
    );
    req.on('error', reject);
  });
}

await runBench('status-page', async () => {
  console.log(
    `status-page: ${COMPONENTS} components${CHART ? ' with response time charts' : ''}, ${MONITORS} monitors every ${INTERVAL_S} s, NODE_ENV=${process.env.BENCH_NODE_ENV ?? 'production'}`,
  );
  const env = printEnvironment();
  const server = await preflight();
  const dataDir = tempDir('status-page');
  const target = await startTarget();
  const port = await freePort();
  // React's production build, as a deployment runs it (the development build renders ~5× slower).
  const nodeEnv = process.env.BENCH_NODE_ENV ?? 'production';
  const child = spawnServer({ dataDir, port, env: { NODE_ENV: nodeEnv } });
  await waitHealthy(port, child);
  const body = (i) => ({
    type: 'http',
    name: `bench ${String(i).padStart(4, '0')}`,
    url: target.url(`/m/${i}`),
    interval: INTERVAL_S,
    timeout: 5,
    retries: 1,
    paused: false,
  });
  const created = await createMonitors(port, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: INTERVAL_S,
    timeout: 5,
  });
  console.log(`created ${MONITORS} monitors in ${(created.ms / 1000).toFixed(1)} s`);
  const list = JSON.parse(String((await request(port, '/api/v1/monitors')).body)).items;
  const ids = list.map((m) => m.id).sort((a, b) => a - b);
  seedPage(dataDir, ids);
  console.log(`seeded the page; warming up ${WARMUP_S} s…`);
  await sleep(WARMUP_S * 1000);

  const url = `/status/${SLUG}`;
  const page = await request(port, url, { headers: { authorization: '' } });
  if (page.status !== 200) throw new Error(`GET ${url} → ${page.status}`);
  const gzipBytes = gzipSync(page.body, { level: 6 }).length;
  const br = await request(port, url, {
    headers: { authorization: '', 'accept-encoding': ENCODING },
  });
  console.log(
    `page: ${kb(page.body.length)} raw, ${kb(gzipBytes)} gzip, ${kb(br.body.length)} as served (${br.headers['content-encoding']})`,
  );

  console.log(`autocannon: ${CONNECTIONS} connections for ${LOAD_S} s…`);
  const load = await autocannon({
    url: `http://127.0.0.1:${port}${url}`,
    connections: CONNECTIONS,
    duration: LOAD_S,
    headers: { 'accept-encoding': ENCODING },
  });
  if (load.non2xx > 0 || load.errors > 0)
    throw new Error(`autocannon: ${load.non2xx} non-2xx, ${load.errors} errors`);

  console.log(`uncached renders: ${UNCACHED} × (edit a monitor on the page, then GET)…`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  const split = { db: [], render: [] };
  for (let i = 0; i < UNCACHED; i++) {
    const index = ids.indexOf(ids[i % COMPONENTS]);
    const edit = await request(port, `/api/v1/monitors/${ids[index]}`, {
      method: 'PUT',
      body: body(index),
      agent,
    });
    if (edit.status !== 200) throw new Error(`PUT monitor → ${edit.status}: ${edit.body}`);
    const res = await ttfb(port, url);
    if (res.status !== 200) throw new Error(`GET ${url} → ${res.status}`);
    times.push(res.ms);
    if (res.timing.db === undefined) throw new Error('an uncached GET was served from the cache');
    split.db.push(res.timing.db);
    split.render.push(res.timing.render);
  }
  agent.destroy();
  const uncached = summarize(times);
  const serverDb = summarize(split.db);
  const serverRender = summarize(split.render);
  const load1 = os.loadavg()[0];
  const complaints = serverComplaints(child);
  await stopChild(child, 'SIGTERM', 20_000);
  await stopChild(target.child);

  const rps = load.requests.average;
  const p99 = load.latency.p99;
  printTable(`GET ${url}, ${COMPONENTS} components, Accept-Encoding: ${ENCODING}`, [
    ['figure', 'value', 'target', 'verdict'],
    ['cached req/s (mean)', rps.toFixed(0), `≥ ${TARGET.rps}`, verdict(rps >= TARGET.rps)],
    [
      'cached latency p50 / p99',
      `${ms(load.latency.p50)} / ${ms(p99)}`,
      `p99 ≤ ${TARGET.p99Ms} ms`,
      verdict(p99 <= TARGET.p99Ms),
    ],
    ['HTML+CSS gzip', kb(gzipBytes), '≤ 30 KiB', verdict(gzipBytes <= TARGET.gzipBytes)],
    [
      'uncached TTFB p50 / p99',
      `${ms(uncached.p50)} / ${ms(uncached.p99)}`,
      `≤ ${TARGET.ttfbMs} ms`,
      verdict(uncached.p99 <= TARGET.ttfbMs),
    ],
    ['  of it, server: reads p50 / p99', `${ms(serverDb.p50)} / ${ms(serverDb.p99)}`, '', ''],
    [
      '  of it, server: render p50 / p99',
      `${ms(serverRender.p50)} / ${ms(serverRender.p99)}`,
      '',
      '',
    ],
    ['load average (1 min) at the end', load1.toFixed(2), '', ''],
  ]);
  if (complaints.length > 0)
    console.log(`server complaints:\n${complaints.slice(0, 10).join('\n')}`);
  writeResult(
    CHART ? 'status-page-chart' : 'status-page',
    {
      components: COMPONENTS,
      chart: CHART,
      nodeEnv,
      monitors: MONITORS,
      connections: CONNECTIONS,
      durationS: LOAD_S,
      cached: { rps, latencyMs: { p50: load.latency.p50, p99, max: load.latency.max } },
      rawBytes: page.body.length,
      gzipBytes,
      servedBytes: br.body.length,
      uncachedTtfbMs: uncached,
      serverMs: { db: serverDb, render: serverRender },
      loadAverage1m: load1,
      server,
    },
    env,
  );
});
