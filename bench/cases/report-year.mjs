// report-year: what a year's availability report costs (ADR 54). Issue 20: a one-year report
// for one monitor ≤ 50 ms and for 1,000 monitors ≤ 2 s with a year of history.
// BENCH_MONITORS monitors (default 1,000), all tagged `bench`, with a year of day rollups
// (365 rows each, a latency sketch in every row) on SQLite. The production report service
// (`buildReport` of server/src/services/reports/build.ts) then builds the 2025 report in UTC,
// per month: for one monitor (BENCH_RUNS runs, default 5) and for the tag (all monitors).
// Reported: wall time per report, mean and max. ADR 75: a report with nothing stored merges each
// month's day sketches and stores them (reported as "nothing stored"); the `report-months` pass
// does the same ahead of time (its cost reported on its own); "first after a restart" is the
// first report of a fresh repository (nothing in memory) reading the stored months; the mean and
// max are of the reports after it (ceil(BENCH_RUNS / 2), default 3). BENCH_SERVER_DIST: another
// server build.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { runBench, tempDir } from '../lib/run.mjs';
import { printEnvironment, printTable, summarize, writeResult } from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DAY = 86_400_000;
const START = Date.UTC(2025, 0, 1);
const distRoot = path.resolve(process.env.BENCH_SERVER_DIST ?? 'server/dist');
const dist = (p) => import(pathToFileURL(path.join(distRoot, p)).href);

await runBench('report-year', async () => {
  const { openDatabase } = await dist('db/database.js');
  const { repositories } = await dist('db/repositories/index.js');
  const { buildReport } = await dist('services/reports/build.js');
  const { prepareReportMonths } = await dist('services/reports/warm.js');
  const { LatencySketch } = await dist('domain/latency-sketch.js');
  const { HttpMonitorInput } = await import('@pagewatch/contract');
  const file = path.join(tempDir('report-year'), 'pagewatch.db');
  const database = await openDatabase({ kind: 'sqlite', file });
  try {
    let repos = repositories(database);
    const seedStart = performance.now();
    const ids = [];
    for (let i = 0; i < MONITORS; i += 1) {
      const input = HttpMonitorInput.parse({
        type: 'http',
        name: `m${i}`,
        url: `http://127.0.0.1:9/${i}`,
        tags: ['bench'],
      });
      ids.push((await repos.monitors.insert(input, START - DAY)).id);
    }
    // A day of 1,440 checks with latencies from 80 to 400 ms, as one stored sketch.
    const sketch = new LatencySketch();
    for (let i = 0; i < 1440; i += 1) sketch.add(80_000 + ((i * 7919) % 320_000));
    const bytes = sketch.serialize();
    const rows = [];
    for (const [i, id] of ids.entries()) {
      for (let d = 0; d < 365; d += 1) {
        const down = (i + d) % 40 === 0 ? 3 : 0;
        rows.push({
          monitor_id: id,
          bucket: START + d * DAY,
          checks: 1440,
          up: 1440 - down - 2,
          degraded: 2,
          down,
          latency_sum_us: 1440 * 240_000,
          latency_count: 1440 - down,
          latency_min_us: 80_000,
          latency_max_us: 399_000,
          latency_sketch: bytes,
        });
      }
    }
    for (let i = 0; i < rows.length; i += 2000) {
      await database.db
        .insertInto('rollup_day')
        .values(rows.slice(i, i + 2000))
        .execute();
    }
    const seedS = (performance.now() - seedStart) / 1000;
    console.log(`seeded ${MONITORS} monitors with 365 days of rollups in ${seedS.toFixed(1)} s`);

    const now = Date.UTC(2026, 0, 15);
    const depsOf = (r) => ({ repos: r, clock: { now: () => now }, settings: null });
    let deps = depsOf(repos);
    const query = (subject, id) => ({
      subject,
      id,
      range: 'custom',
      from: '2025-01-01',
      to: '2025-12-31',
      timeZone: 'UTC',
      degradedIsDown: false,
    });
    // Wall time and this process's CPU: on a shared, loaded machine the CPU says what it costs.
    const cpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const cpu = { one: [], all: [] };
    const time = async (q, into) => {
      const [t0, c0] = [performance.now(), cpuMs()];
      const r = await buildReport(deps, q);
      into?.push(cpuMs() - c0);
      return { ms: performance.now() - t0, r };
    };
    await time(query('monitor', String(ids[0]))); // warm-up: module and statement caches
    const one = [];
    for (let k = 0; k < RUNS; k += 1)
      one.push((await time(query('monitor', String(ids[k % ids.length])), cpu.one)).ms);
    const all = [];
    // Nothing stored: the report merges each month's day sketches and stores them (ADR 75).
    const cpuCold = [];
    const cold = await time(query('tag', 'bench'), cpuCold);
    // The months made ready ahead of time instead, by the `report-months` pass.
    await database.db.deleteFrom('rollup_run_sketches').execute();
    deps = depsOf((repos = repositories(database)));
    const [p0, pc0] = [performance.now(), cpuMs()];
    const pass = await prepareReportMonths(deps);
    const passMs = performance.now() - p0;
    const passCpuMs = cpuMs() - pc0;
    // The pass again, everything stored: what it costs every few hours.
    const [q0, qc0] = [performance.now(), cpuMs()];
    const again = await prepareReportMonths(depsOf(repositories(database)));
    const againMs = performance.now() - q0;
    const againCpuMs = cpuMs() - qc0;
    // A new process: nothing in memory, the months stored.
    deps = depsOf((repos = repositories(database)));
    const cpuFirst = [];
    const first = await time(query('tag', 'bench'), cpuFirst);
    let last;
    for (let k = 0; k < Math.max(1, Math.ceil(RUNS / 2)); k += 1) {
      const { ms, r } = await time(query('tag', 'bench'), cpu.all);
      all.push(ms);
      last = r;
    }
    const oneS = summarize(one);
    const allS = summarize(all);
    printEnvironment();
    printTable(`Year report (12 months, UTC), SQLite, ${MONITORS} monitors`, [
      ['one monitor: mean', `${oneS.mean.toFixed(1)} ms (target ≤ 50 ms)`],
      ['one monitor: max', `${oneS.max.toFixed(1)} ms`],
      ['one monitor: CPU mean', `${summarize(cpu.one).mean.toFixed(1)} ms`],
      [
        `${MONITORS} monitors (tag): nothing stored`,
        `${cold.ms.toFixed(0)} ms, CPU ${cpuCold[0]?.toFixed(0)} ms`,
      ],
      [
        'report-months pass (12 months, UTC)',
        `${passMs.toFixed(0)} ms, CPU ${passCpuMs.toFixed(0)} ms, ${pass.merged} runs merged`,
      ],
      [
        'report-months pass again, in a new process',
        `${againMs.toFixed(0)} ms, CPU ${againCpuMs.toFixed(0)} ms, ${again.merged} runs merged`,
      ],
      [
        `${MONITORS} monitors (tag): first after a restart`,
        `${first.ms.toFixed(0)} ms, CPU ${cpuFirst[0]?.toFixed(0)} ms (target ≤ 2,000 ms)`,
      ],
      [`${MONITORS} monitors (tag): mean`, `${allS.mean.toFixed(0)} ms (target ≤ 2,000 ms)`],
      [`${MONITORS} monitors (tag): max`, `${allS.max.toFixed(0)} ms`],
      [`${MONITORS} monitors (tag): CPU mean`, `${summarize(cpu.all).mean.toFixed(0)} ms`],
      ['tag report uptime', `${last?.uptime} % over ${last?.monitors.length} monitors`],
    ]);
    writeResult('report-year', {
      monitors: MONITORS,
      oneMonitorMs: oneS,
      allMonitorsNothingStoredMs: cold.ms,
      allMonitorsNothingStoredCpuMs: cpuCold[0],
      monthsPassMs: passMs,
      monthsPassCpuMs: passCpuMs,
      monthsPassMerged: pass.merged,
      monthsPassAgainMs: againMs,
      monthsPassAgainCpuMs: againCpuMs,
      monthsPassAgainMerged: again.merged,
      allMonitorsFirstMs: first.ms,
      allMonitorsFirstCpuMs: cpuFirst[0],
      allMonitorsMs: allS,
      oneMonitorCpuMs: summarize(cpu.one),
      allMonitorsCpuMs: summarize(cpu.all),
      met: oneS.mean <= 50 && allS.mean <= 2000 && first.ms <= 2000,
    });
  } finally {
    await database.close();
  }
});
