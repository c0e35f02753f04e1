// dashboard: latency of GET /api/v1/monitors with 1,000 monitors and some history, with and
// without gzip, and the gzip size of the SPA's JavaScript. Targets: ≤ 50 ms; initial JS ≤ 200 KB.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  createMonitors,
  freePort,
  preflight,
  request,
  root,
  runBench,
  serverComplaints,
  sleep,
  shareSignIn,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  byLabel,
  kb,
  ms,
  parseProm,
  percentile,
  printEnvironment,
  printTable,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const HISTORY_S = Number(process.env.BENCH_HISTORY_S ?? 310);
const WARMUP = 20;
const REQUESTS = 200;
const TARGET_MS = 50;
const TARGET_INITIAL_JS = 200 * 1024;

/** 20 warm-ups, then 200 sequential requests on one keep-alive connection. */
async function measureList(port, encoding) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = encoding ? { 'accept-encoding': encoding } : {};
  const times = [];
  const sizes = [];
  try {
    for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
      const res = await request(port, '/api/v1/monitors', { headers, agent });
      if (res.status !== 200) throw new Error(`GET /api/v1/monitors → ${res.status}`);
      if (res.headers['content-encoding'] !== encoding) {
        throw new Error(
          `asked for ${encoding ?? 'identity'}, got ${res.headers['content-encoding']}`,
        );
      }
      if (i === 0) {
        const json = JSON.parse(String(encoding ? gunzipSync(res.body) : res.body));
        if (json.items.length !== MONITORS) throw new Error(`listed ${json.items.length} monitors`);
      }
      if (i >= WARMUP) {
        times.push(res.ms);
        sizes.push(res.body.length);
      }
    }
  } finally {
    agent.destroy();
  }
  return { latencyMs: summarize(times), bytes: percentile(sizes, 50) };
}

async function measureModes(port, mode) {
  const plain = await measureList(port, undefined);
  const gzip = await measureList(port, 'gzip');
  return [
    { mode, encoding: 'identity', ...plain },
    { mode, encoding: 'gzip', ...gzip },
  ];
}

const gzipSize = (file) => gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** Relative static imports of a built chunk (`import … from "./x.js"`, `import "./x.js"`). */
function staticImports(assets, file) {
  const code = fs.readFileSync(path.join(assets, file), 'utf8');
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*)["']\.\/([^"']+\.js)["']/g)].map((m) => m[1]);
}

function closure(assets, start) {
  const seen = new Set();
  const todo = [...start];
  while (todo.length > 0) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...staticImports(assets, file));
  }
  return seen;
}

/** gzip -9 sizes of what index.html loads, of the dashboard route on top, and of all JS. */
function bundleSizes() {
  const dist = path.join(root, 'web/dist');
  const assets = path.join(dist, 'assets');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const listed = [];
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) listed.push(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    if (/\brel="modulepreload"/.test(m[0])) listed.push(/\bhref="([^"]+)"/.exec(m[0])[1]);
  }
  const initial = listed.filter((src) => src.endsWith('.js')).map((src) => path.basename(src));
  const all = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
  const dashboardChunk = all.find((f) => f.startsWith('dashboard-'));
  const dashboard = closure(assets, [...initial, ...(dashboardChunk ? [dashboardChunk] : [])]);
  const sum = (files) => [...files].reduce((a, f) => a + gzipSize(path.join(assets, f)), 0);
  const raw = (files) => [...files].reduce((a, f) => a + fs.statSync(path.join(assets, f)).size, 0);
  return {
    builtAt: fs.statSync(path.join(dist, 'index.html')).mtime.toISOString(),
    initial: { files: initial, gzipBytes: sum(initial), rawBytes: raw(initial) },
    dashboardRoute: { files: [...dashboard], gzipBytes: sum(dashboard), rawBytes: raw(dashboard) },
    allJs: { files: all.length, gzipBytes: sum(all), rawBytes: raw(all) },
  };
}

await runBench('dashboard', async () => {
  console.log(`dashboard: ${MONITORS} monitors, ${HISTORY_S} s of history at a 10 s interval`);
  const env = printEnvironment();
  const server = await preflight();
  const bundle = bundleSizes();
  const dataDir = tempDir('dashboard');
  const target = await startTarget();

  let port = await freePort();
  let child = spawnServer({ dataDir, port });
  await waitHealthy(port, child);
  const created = await createMonitors(port, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: 10,
    timeout: 5,
  });
  console.log(
    `created ${MONITORS} monitors in ${(created.ms / 1000).toFixed(1)} s; recording history…`,
  );
  await sleep(HISTORY_S * 1000);
  const outcomes = byLabel(
    parseProm(String((await request(port, '/metrics')).body)),
    'pagewatch_checks_total',
    'outcome',
  );
  console.log(`history: checks by outcome ${JSON.stringify(outcomes)}`);

  console.log('measuring with the scheduler running…');
  const rows = await measureModes(port, 'live (scheduler running)');
  const complaints = serverComplaints(child);
  await stopChild(child, 'SIGTERM', 20_000);

  console.log('measuring API-only (PAGEWATCH_ROLES=web, no checks running)…');
  const seededPort = port;
  port = await freePort();
  shareSignIn(seededPort, port);
  child = spawnServer({ dataDir, port, env: { PAGEWATCH_ROLES: 'web' } });
  await waitHealthy(port, child);
  rows.push(...(await measureModes(port, 'quiet (PAGEWATCH_ROLES=web)')));
  complaints.push(...serverComplaints(child));
  await stopChild(child, 'SIGTERM', 20_000);

  printTable(`GET /api/v1/monitors, ${MONITORS} monitors, ${REQUESTS} sequential requests`, [
    ['server', 'encoding', 'p50', 'p95', 'p99', 'max', 'bytes'],
    ...rows.map((r) => [
      r.mode,
      r.encoding,
      ms(r.latencyMs.p50),
      ms(r.latencyMs.p95),
      ms(r.latencyMs.p99),
      ms(r.latencyMs.max),
      kb(r.bytes),
    ]),
  ]);
  printTable(`SPA JavaScript (web/dist built ${bundle.builtAt}), gzip -9`, [
    ['what', 'files', 'raw', 'gzip'],
    [
      'initial (index.html script + modulepreload)',
      bundle.initial.files.length,
      kb(bundle.initial.rawBytes),
      kb(bundle.initial.gzipBytes),
    ],
    [
      'dashboard route (initial + lazy chunk closure)',
      bundle.dashboardRoute.files.length,
      kb(bundle.dashboardRoute.rawBytes),
      kb(bundle.dashboardRoute.gzipBytes),
    ],
    [
      'all JS in web/dist/assets',
      bundle.allJs.files,
      kb(bundle.allJs.rawBytes),
      kb(bundle.allJs.gzipBytes),
    ],
  ]);

  const worstP99 = Math.max(...rows.map((r) => r.latencyMs.p99));
  const apiMet = worstP99 <= TARGET_MS;
  const jsMet = bundle.initial.gzipBytes <= TARGET_INITIAL_JS;
  console.log(
    `\ntarget: GET /api/v1/monitors p99 ≤ ${TARGET_MS} ms: ${verdict(apiMet)} (worst p99 ${ms(worstP99)})`,
  );
  console.log(
    `target: initial JS ≤ ${kb(TARGET_INITIAL_JS)} gzip: ${verdict(jsMet)} (${kb(bundle.initial.gzipBytes)})`,
  );
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  writeResult(
    'dashboard',
    {
      monitors: MONITORS,
      historySeconds: HISTORY_S,
      server,
      historyChecks: outcomes,
      requests: { warmup: WARMUP, measured: REQUESTS },
      list: rows,
      bundle,
      target: { p99Ms: TARGET_MS, apiMet, initialJsBytes: TARGET_INITIAL_JS, jsMet },
      complaints: complaints.slice(0, 50),
    },
    env,
  );
});
