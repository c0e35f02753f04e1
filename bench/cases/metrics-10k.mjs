// metrics-10k: GET /metrics with 10,000 HTTP monitors checked every 60 s against a loopback
// target, behind a bearer token: time per scrape (p50/p99) and body size, plain and gzip
// (Prometheus asks for gzip). BENCH_MONITORS, BENCH_SCRAPES change the figures.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import {
  createMonitors,
  freePort,
  now,
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
  parseProm,
  printEnvironment,
  printTable,
  sumMetric,
  summarize,
  writeResult,
} from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 50);
const WARMUP = 3;
const TOKEN = 'bench-metrics-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

/** Sequential scrapes on one keep-alive connection, as one Prometheus target is scraped. */
async function measure(port, encoding) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { ...auth, ...(encoding ? { 'accept-encoding': encoding } : {}) };
  const times = [];
  let bytes = 0;
  let text = '';
  try {
    for (let i = 0; i < WARMUP + SCRAPES; i += 1) {
      const res = await request(port, '/metrics', { headers, agent });
      if (res.status !== 200) throw new Error(`GET /metrics → ${res.status}: ${res.body}`);
      if (i < WARMUP) continue;
      times.push(res.ms);
      bytes = res.body.length;
      text = String(encoding ? gunzipSync(res.body) : res.body);
    }
  } finally {
    agent.destroy();
  }
  return { encoding: encoding ?? 'identity', ms: summarize(times), bytes, text };
}

await runBench('metrics-10k', async () => {
  console.log(`metrics-10k: ${MONITORS} HTTP monitors every 60 s, ${SCRAPES} scrapes per encoding`);
  const env = printEnvironment();
  const target = await startTarget();
  const port = await freePort();
  const child = spawnServer({
    dataDir: tempDir('metrics'),
    port,
    env: { PAGEWATCH_METRICS_TOKEN: TOKEN },
  });
  await waitHealthy(port, child);
  const created = await createMonitors(port, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: 60,
    timeout: 5,
  });
  console.log(`created ${MONITORS} monitors in ${(created.ms / 1000).toFixed(1)} s`);

  // The first scrape reads the monitors and the rollups; later ones patch from live results.
  const t0 = now();
  const first = await request(port, '/metrics', { headers: auth });
  const firstMs = now() - t0;
  for (let checked = 0; checked < MONITORS; await sleep(5000)) {
    const res = await request(port, '/metrics', { headers: auth });
    checked = sumMetric(parseProm(String(res.body)), 'pagewatch_checks_total');
    console.log(`  ${checked} checks done`);
  }

  const rows = [await measure(port, undefined), await measure(port, 'gzip')];
  const samples = parseProm(rows[0].text);
  const perMonitor = samples.filter((s) => s.name.startsWith('pagewatch_monitor_')).length;
  const complaints = serverComplaints(child);
  await stopChild(child, 'SIGTERM', 20_000);
  await stopChild(target.child);

  printTable(`GET /metrics, ${MONITORS} monitors, ${SCRAPES} sequential scrapes`, [
    ['encoding', 'p50', 'p95', 'p99', 'max', 'body'],
    ...rows.map((r) => [
      r.encoding,
      ms(r.ms.p50),
      ms(r.ms.p95),
      ms(r.ms.p99),
      ms(r.ms.max),
      kb(r.bytes),
    ]),
  ]);
  console.log(
    `series: ${samples.length} in all, ${perMonitor} per-monitor (${(perMonitor / MONITORS).toFixed(1)} a monitor)`,
  );
  console.log(
    `first scrape (reads the monitors and rollups): ${ms(firstMs)}, ${kb(first.body.length)}`,
  );
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  writeResult(
    'metrics-10k',
    {
      monitors: MONITORS,
      scrapes: SCRAPES,
      firstScrapeMs: firstMs,
      series: { all: samples.length, perMonitor },
      scrape: rows.map(({ text: _text, ...r }) => r),
      complaints: complaints.slice(0, 50),
    },
    env,
  );
});
