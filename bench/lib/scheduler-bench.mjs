// The scheduler benchmark: N HTTP monitors every I s (timeout 5 s) against a loopback target in
// its own process. Measures due vs run checks, start lateness, CPU, RSS and event-loop lag.
// Targets: ≥ 99.9 % of due checks run; p99 start lateness ≤ the bar (250 ms at 1k, 500 ms at
// scale as the check-engine issue sets it). The cases in bench/cases set the defaults;
// BENCH_MONITORS, BENCH_INTERVAL_S, BENCH_DURATION_S override them.
import { setInterval, clearInterval } from 'node:timers';
import {
  createMonitors,
  freePort,
  getJson,
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
} from './run.mjs';
import {
  buckets,
  byLabel,
  cpuSeconds,
  histogramMaxBound,
  histogramQuantile,
  mb,
  metric,
  ms,
  parseProm,
  pct,
  printEnvironment,
  printTable,
  rssBytes,
  summarize,
  verdict,
  writeResult,
} from './stats.mjs';
import { arrivalFigures, nextAtPhase, perMonitor, quietPhase } from './arrivals.mjs';

const NAME = process.env.BENCH_SCHEDULER_NAME ?? 'scheduler-1k-10s';
const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S ?? 10);
const LATENESS_BAR_S = Number(process.env.BENCH_LATENESS_BAR_MS ?? 250) / 1000;
// A whole number of intervals, so every monitor has exactly DURATION_S / INTERVAL_S due times.
const DURATION_S = Math.ceil(Number(process.env.BENCH_DURATION_S ?? 180) / INTERVAL_S) * INTERVAL_S;
// Every monitor's first check is spread over its first interval: measure after it.
const WARMUP_S = Math.max(15, INTERVAL_S + 5);
// 0: create as fast as the API allows (a bulk import); N: pace creation over N seconds.
const CREATE_OVER_S = Number(process.env.BENCH_CREATE_OVER_S ?? 0);
const SCRAPE_EVERY_S = Math.max(10, INTERVAL_S / 2);
const LATENESS = 'pagewatch_check_start_lateness_seconds';
const SUMMARY = 'pagewatch_check_start_lateness_recent_seconds';
const LOOP_RESOLUTION_S = 0.01; // prom-client samples the loop every 10 ms; idle p50 reads ~0.010

/** /metrics, stamped with the middle of the request (when the counters were read, roughly). */
async function scrape(port) {
  const before = Date.now();
  const res = await request(port, '/metrics');
  const after = Date.now();
  return {
    before,
    at: (before + after) / 2,
    ms: after - before,
    samples: parseProm(String(res.body)),
  };
}

const checks = (s) => byLabel(s.samples, 'pagewatch_checks_total', 'outcome');
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);

await runBench(NAME, async () => {
  console.log(
    `${NAME}: ${MONITORS} monitors every ${INTERVAL_S} s, created over ${CREATE_OVER_S} s, ${WARMUP_S} s warm-up, ${DURATION_S} s measured`,
  );
  const env = printEnvironment();
  const server = await preflight();
  const dataDir = tempDir('scheduler');
  const target = await startTarget();
  const port = await freePort();
  const child = spawnServer({ dataDir, port });
  await waitHealthy(port, child);
  const pid = child.pid;

  const created = await createMonitors(port, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: INTERVAL_S,
    timeout: 5,
    overMs: CREATE_OVER_S * 1000,
  });
  console.log(`created ${MONITORS} monitors in ${(created.ms / 1000).toFixed(1)} s; warming up…`);
  await sleep(WARMUP_S * 1000);
  // Read the counters where the 10 s cycle is quietest, so no burst straddles the boundaries.
  const quiet = quietPhase((await getJson(target.port, '/__stats')).arrivals, INTERVAL_S * 1000);
  await sleep(nextAtPhase(quiet.phaseMs, INTERVAL_S * 1000, Date.now() + 500) - Date.now());

  const rss = [];
  const series = [];
  const targetCpu0 = cpuSeconds(target.child.pid);
  const procCpu0 = cpuSeconds(pid);
  const first = await scrape(port);
  let last = first;
  const rssTimer = setInterval(() => rss.push(rssBytes(pid)), 1000);
  const scrapeTimer = setInterval(() => {
    void scrape(port).then((s) => {
      const prev = last;
      last = s;
      const row = {
        t: Math.round((s.at - first.at) / 1000),
        checksPerS: (sum(checks(s)) - sum(checks(prev))) / ((s.at - prev.at) / 1000),
        inFlight: metric(s.samples, 'pagewatch_checks_in_flight'),
        writeQueue: metric(s.samples, 'pagewatch_result_write_queue'),
        loopP99: metric(s.samples, 'nodejs_eventloop_lag_p99_seconds'),
        loopMax: metric(s.samples, 'nodejs_eventloop_lag_max_seconds'),
        scrapeMs: s.ms,
      };
      series.push(row);
      console.log(
        `  t+${row.t}s: ${row.checksPerS.toFixed(1)} checks/s, in flight ${row.inFlight}, write queue ${row.writeQueue}, loop p99 ${ms(row.loopP99 * 1000)} max ${ms(row.loopMax * 1000)}`,
      );
    });
  }, SCRAPE_EVERY_S * 1000);

  await sleep(first.before + DURATION_S * 1000 - Date.now());
  clearInterval(scrapeTimer);
  clearInterval(rssTimer);
  const end = await scrape(port);
  const procCpu1 = cpuSeconds(pid);
  const targetCpu1 = cpuSeconds(target.child.pid);
  const { arrivals } = await getJson(target.port, '/__stats');

  const wallS = (end.at - first.at) / 1000;
  const due = (MONITORS * wallS) / INTERVAL_S;
  const delta = (s) => metric(end.samples, s) - metric(first.samples, s);
  const completed = sum(checks(end)) - sum(checks(first));
  const started = delta(`${LATENESS}_count`);
  const seen = arrivalFigures(arrivals, first.at, end.at, INTERVAL_S * 1000);
  const each = perMonitor(arrivals, MONITORS, first.at, end.at, DURATION_S / INTERVAL_S);
  const outcomes = Object.fromEntries(
    Object.entries(checks(end)).map(([k, v]) => [k, v - (checks(first)[k] ?? 0)]),
  );
  const window = buckets(end.samples, LATENESS, first.samples);
  const hq = (q) => histogramQuantile(window, q);
  const sq = (q) => metric(end.samples, SUMMARY, { quantile: q });
  const cpuPct = (100 * delta('process_cpu_seconds_total')) / wallS;
  const rssStats = summarize(rss.filter((v) => v !== null));
  const loop = summarize(
    series.map((r) => r.loopP99).concat(metric(end.samples, 'nodejs_eventloop_lag_p99_seconds')),
  );
  const loopMax = Math.max(...series.map((r) => r.loopMax));
  const bound = (q) => `≤ ${ms(hq(q)?.bound * 1000, 0)}`;
  const of = (n) => pct((100 * n) / due);

  printTable(`due vs run over ${wallS.toFixed(2)} s (after a ${WARMUP_S} s warm-up)`, [
    ['count', 'checks', 'of due'],
    ['due (monitors × window / interval)', due.toFixed(1), '100 %'],
    ['completed (Δ pagewatch_checks_total)', completed, of(completed)],
    ['started (Δ lateness histogram _count)', started, of(started)],
    ['received by the target', seen.received, of(seen.received)],
    ['  monitors short of their due checks', each.monitorsShort, ''],
    ['  monitors with a gap > 1.5 intervals', seen.monitorsWithGap, ''],
  ]);
  printTable('start lateness (due → check started)', [
    ['source', 'p50', 'p90', 'p99', 'p99.9', 'max'],
    [
      'summary, last 10 min (whole run)',
      ...['0.5', '0.9', '0.99', '0.999'].map((q) => ms(sq(q) * 1000)),
      '–',
    ],
    [
      'histogram Δ over the window',
      ...[0.5, 0.9, 0.99, 0.999].map((q) => ms(hq(q)?.value * 1000)),
      `≤ ${ms(histogramMaxBound(window) * 1000, 0)}`,
    ],
    ['  (bucket holding it)', ...[0.5, 0.9, 0.99, 0.999].map(bound), ''],
    [
      'target: arrival vs monitor’s most punctual',
      ms(seen.jitter.p50, 0),
      '–',
      ms(seen.jitter.p99, 0),
      '–',
      ms(seen.jitter.max, 0),
    ],
  ]);
  printTable('server resources over the window', [
    ['measure', 'value'],
    ['CPU, % of one core (process_cpu_seconds_total)', pct(cpuPct, 1)],
    ['CPU, % of one core (/proc utime+stime)', pct((100 * (procCpu1 - procCpu0)) / wallS, 1)],
    ['target process CPU (not counted above)', pct((100 * (targetCpu1 - targetCpu0)) / wallS, 1)],
    ['RSS mean / peak (VmRSS every 1 s)', `${mb(rssStats.mean)} / ${mb(rssStats.max)}`],
    ['RSS first → last sample', `${mb(rss[0])} → ${mb(rss.at(-1))}`],
    ['event loop p99 per 10 s: median / worst', `${ms(loop.p50 * 1000)} / ${ms(loop.max * 1000)}`],
    [
      '  minus the 10 ms sampling interval',
      `${ms((loop.p50 - LOOP_RESOLUTION_S) * 1000)} / ${ms((loop.max - LOOP_RESOLUTION_S) * 1000)}`,
    ],
    ['event loop max delay (worst 10 s)', ms(loopMax * 1000)],
    ['peak checks in one second at the target', seen.peakPerSecond],
  ]);

  const runPct = (100 * completed) / due;
  const p99 = { summary: sq('0.99'), window: hq(0.99)?.value ?? null };
  const met = {
    run: runPct >= 99.9,
    lateness: Math.max(p99.summary, p99.window ?? 0) <= LATENESS_BAR_S,
  };
  console.log(`\nchecks by outcome in the window: ${JSON.stringify(outcomes)}`);
  console.log(`target: ≥ 99.9 % of due checks run: ${verdict(met.run)} (${pct(runPct)})`);
  console.log(
    `target: p99 start lateness ≤ ${LATENESS_BAR_S * 1000} ms: ${verdict(met.lateness)} (summary ${ms(p99.summary * 1000)}, window histogram ${ms(p99.window * 1000)})`,
  );
  const complaints = serverComplaints(child);
  const stopped = await stopChild(child, 'SIGTERM', 20_000);
  console.log(`SIGTERM → exit ${ms(stopped.ms)} (code ${stopped.code})`);
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  writeResult(
    NAME,
    {
      settings: { MONITORS, INTERVAL_S, DURATION_S, WARMUP_S, CREATE_OVER_S },
      server,
      createMs: created.ms,
      quiet,
      windowS: wallS,
      due,
      completed,
      started,
      outcomes,
      runPercent: runPct,
      fromTarget: { ...seen, ...each },
      latenessSummarySeconds: Object.fromEntries(
        ['0.5', '0.9', '0.99', '0.999'].map((q) => [q, sq(q)]),
      ),
      latenessWindowSeconds: Object.fromEntries([0.5, 0.9, 0.99, 0.999].map((q) => [q, hq(q)])),
      latenessWindowBuckets: window,
      cpuPercentOfOneCore: cpuPct,
      procCpuPercent: (100 * (procCpu1 - procCpu0)) / wallS,
      targetCpuPercent: (100 * (targetCpu1 - targetCpu0)) / wallS,
      rssBytes: { ...rssStats, first: rss[0], last: rss.at(-1) },
      eventLoopP99Seconds: loop,
      eventLoopMaxSeconds: loopMax,
      series,
      shutdown: stopped,
      met,
      complaints: complaints.slice(0, 50),
    },
    env,
  );
});
