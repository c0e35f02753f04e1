// history: a year of checks for 1,000 monitors at 60 s, as retention leaves it (raw results
// 30 days, minute rollups 90 days, hour and day rollups all year), written straight into a
// fresh SQLite file by bench/lib/history-data.mjs; then the monitors list and one monitor's
// stats are timed, API-only and with the scheduler running (after retention's first pass).
// Targets: list p95 ≤ 100 ms; one monitor's 90-day stats and chart ≤ 20 ms. Also reports
// bytes per stored row.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateHistory } from '../lib/history-data.mjs';
import {
  createMonitors,
  ensureSignedIn,
  freePort,
  now,
  request,
  runBench,
  serverComplaints,
  shareSignIn,
  sleep,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  mb,
  ms,
  printEnvironment,
  printTable,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const DAYS = Number(process.env.BENCH_HISTORY_DAYS ?? 365);
const WARMUP = 10;
const REQUESTS = 100;
const LIST_TARGET_MS = 100;
const STATS_TARGET_MS = 20;
const WINDOWS = ['1h', '24h', '7d', '30d', '90d'];

/** Sequential GETs on one keep-alive connection; checks each answer with `check`. */
async function measure(port, urlPath, check) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  let bytes = 0;
  try {
    for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
      const res = await request(port, urlPath, { agent });
      if (res.status !== 200) throw new Error(`GET ${urlPath} → ${res.status}: ${res.body}`);
      if (i === 0) check(JSON.parse(String(res.body)));
      if (i >= WARMUP) times.push(res.ms);
      bytes = res.body.length;
    }
  } finally {
    agent.destroy();
  }
  return { latencyMs: summarize(times), bytes };
}

/** The list and every stats window of one monitor in the middle of the list. */
async function measureAll(port, mode, monitorId) {
  const rows = [];
  const list = await measure(port, '/api/v1/monitors', (body) => {
    if (body.items.length !== MONITORS) throw new Error(`listed ${body.items.length} monitors`);
    if (body.items.filter((m) => m.uptime24h === null).length > 0) {
      throw new Error('a monitor has no 24 h uptime: the history is missing');
    }
  });
  rows.push({ mode, what: 'GET /api/v1/monitors', ...list });
  for (const w of WINDOWS) {
    const url = `/api/v1/monitors/${monitorId}/stats?window=${w}`;
    const stats = await measure(port, url, (body) => {
      if (body.checks === 0 || body.latency.p95 === null) throw new Error(`${w}: no history`);
    });
    rows.push({ mode, what: `GET …/stats?window=${w}`, ...stats });
  }
  return rows;
}

/** Bytes per table and index (SQLite's dbstat), rows per table. */
function storage(file) {
  const db = new Database(file, { readonly: true });
  try {
    const pages = db
      .prepare('select name, sum(pgsize) as bytes from dbstat group by name')
      .all()
      .map((r) => [r.name, r.bytes]);
    const bytes = Object.fromEntries(pages);
    const count = (t) => db.prepare(`select count(*) as n from ${t}`).get().n;
    const tables = {
      check_results: ['check_results', 'check_results_monitor_at'],
      rollup_minute: ['rollup_minute'],
      rollup_hour: ['rollup_hour', 'rollup_hour_bucket'],
      rollup_day: ['rollup_day'],
    };
    const perTable = Object.entries(tables).map(([table, parts]) => {
      const b = parts.reduce((a, p) => a + (bytes[p] ?? 0), 0);
      const rows = count(table);
      return { table, rows, bytes: b, bytesPerRow: rows ? b / rows : null };
    });
    const sketch = db
      .prepare('select avg(length(latency_sketch)) as avg from rollup_hour')
      .get().avg;
    return { fileBytes: fs.statSync(file).size, perTable, hourSketchAvgBytes: sketch };
  } finally {
    db.close();
  }
}

/** Raw results and minute buckets that had expired by `at`: retention's work after it. */
function expired(file, at) {
  const db = new Database(file, { readonly: true });
  try {
    const count = (table, column, keepMs) =>
      db
        .prepare(
          `select count(*) from ${table} where monitor_id in (select id from monitors) and ${column} < ?`,
        )
        .pluck()
        .get(at - keepMs);
    return {
      raw: count('check_results', 'at', 30 * 86_400_000),
      minute: count('rollup_minute', 'bucket', 90 * 86_400_000),
    };
  } finally {
    db.close();
  }
}

async function serve(dataDir, fromPort, env) {
  const port = await freePort();
  shareSignIn(fromPort, port);
  const t0 = now();
  const child = spawnServer({ dataDir, port, env });
  await waitHealthy(port, child, { timeoutMs: 120_000 });
  return { port, child, startMs: now() - t0 };
}

await runBench('history', async () => {
  console.log(`history: ${MONITORS} monitors, ${DAYS} days at 60 s, on SQLite`);
  const env = printEnvironment();
  const dataDir = tempDir('history');
  const file = path.join(dataDir, 'pagewatch.db');
  const target = await startTarget();

  // A fresh server migrates the file, creates the owner and the monitors, then steps aside.
  const setupPort = await freePort();
  const child = spawnServer({ dataDir, port: setupPort, env: { PAGEWATCH_ROLES: 'web' } });
  await waitHealthy(setupPort, child);
  await ensureSignedIn(setupPort);
  await createMonitors(setupPort, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: 60,
    timeout: 10,
    parallel: 8,
  });
  await stopChild(child);

  const t0 = now();
  let shown = 0;
  const rows = generateHistory(file, {
    now: Date.now(),
    days: DAYS,
    onProgress: (done, total) => {
      if (done / total >= shown + 0.1 || done === total) {
        shown = done / total;
        console.log(
          `  generated ${done}/${total} monitors in ${((now() - t0) / 1000).toFixed(0)} s`,
        );
      }
    },
  });
  const generateS = (now() - t0) / 1000;
  const stored = storage(file);
  const monitorId = Math.ceil(MONITORS / 2);

  console.log('measuring API-only (PAGEWATCH_ROLES=web): the list is read from the database…');
  let served = await serve(dataDir, setupPort, { PAGEWATCH_ROLES: 'web' });
  const coldStartMs = served.startMs;
  const results = await measureAll(served.port, 'quiet (web only)', monitorId);
  const complaints = serverComplaints(served.child);
  await stopChild(served.child, 'SIGTERM', 30_000);

  console.log('measuring with the scheduler checking every monitor, after retention’s first pass…');
  const liveAt = Date.now();
  const expiredBefore = expired(file, liveAt);
  served = await serve(dataDir, setupPort, {});
  // Past retention's first pass (30 s after start) and into the first round of checks.
  await sleep(35_000);
  results.push(...(await measureAll(served.port, 'live (scheduler running)', monitorId)));
  complaints.push(...serverComplaints(served.child));
  await stopChild(served.child, 'SIGTERM', 30_000);
  const expiredAfter = expired(file, liveAt);

  printTable(`storage: ${rows.raw.toLocaleString()} raw results in ${mb(stored.fileBytes)}`, [
    ['table (with its indexes)', 'rows', 'size', 'bytes/row'],
    ...stored.perTable.map((t) => [
      t.table,
      t.rows.toLocaleString(),
      mb(t.bytes),
      t.bytesPerRow?.toFixed(1),
    ]),
  ]);
  const checksOfTheYear = MONITORS * DAYS * 1440;
  console.log(
    `file: ${mb(stored.fileBytes)}; ${(stored.fileBytes / rows.raw).toFixed(0)} B per raw result kept, ` +
      `${(stored.fileBytes / checksOfTheYear).toFixed(1)} B per check of the year; hour sketch ${stored.hourSketchAvgBytes?.toFixed(0)} B`,
  );
  printTable(`latency, ${REQUESTS} sequential requests each (monitor ${monitorId})`, [
    ['server', 'request', 'p50', 'p95', 'p99', 'max', 'bytes'],
    ...results.map((r) => [
      r.mode,
      r.what,
      ms(r.latencyMs.p50),
      ms(r.latencyMs.p95),
      ms(r.latencyMs.p99),
      ms(r.latencyMs.max),
      r.bytes,
    ]),
  ]);
  const worst = (what) =>
    Math.max(...results.filter((r) => r.what === what).map((r) => r.latencyMs.p95));
  const listP95 = worst('GET /api/v1/monitors');
  const statsP95 = worst('GET …/stats?window=90d');
  console.log(
    `\ngenerated in ${generateS.toFixed(0)} s; server healthy ${ms(coldStartMs)} after spawn`,
  );
  console.log(
    `retention during the live run: raw results expired at its start ${expiredBefore.raw} → ` +
      `${expiredAfter.raw}, minute buckets ${expiredBefore.minute} → ${expiredAfter.minute}`,
  );

  console.log(
    `target: list p95 ≤ ${LIST_TARGET_MS} ms: ${verdict(listP95 <= LIST_TARGET_MS)} (${ms(listP95)})`,
  );
  console.log(
    `target: 90 d stats p95 ≤ ${STATS_TARGET_MS} ms: ${verdict(statsP95 <= STATS_TARGET_MS)} (${ms(statsP95)})`,
  );
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  await stopChild(target.child);
  writeResult(
    'history',
    {
      monitors: MONITORS,
      days: DAYS,
      generated: { seconds: generateS, rows },
      storage: stored,
      coldStartMs,
      expiredAtLiveStart: { before: expiredBefore, after: expiredAfter },
      requests: { warmup: WARMUP, measured: REQUESTS, monitorId },
      results,
      target: {
        listP95Ms: LIST_TARGET_MS,
        listMet: listP95 <= LIST_TARGET_MS,
        statsP95Ms: STATS_TARGET_MS,
        statsMet: statsP95 <= STATS_TARGET_MS,
      },
      complaints: complaints.slice(0, 50),
    },
    env,
  );
});
