// slo-eval: what judging SLOs' burn rates costs (ADR 53). Issue 20: SLO evaluation for 10,000
// monitors adds ≤ 1 % CPU at 60 s intervals.
// BENCH_MONITORS monitors (default 10,000), one SLO each (99.9 %, 30 days, alerts on), with
// BENCH_HOURS (default 72) hours of hourly rollups and the last 60 minutes of minute rollups,
// on SQLite. The production evaluator (`evaluate` of server/src/slos/job.ts) then runs as the
// singleton would: a first pass that loads every monitor's counters, and BENCH_TICKS (default
// 5) passes a minute apart (fake clock), each after one new minute of rollups for every
// monitor was written (the writes are the result writer's cost, not measured). Reported: the
// process CPU of each pass and the share of a 60 s interval it takes.
// BENCH_SERVER_DIST points at another build of the server (default server/dist); BENCH_CPU_PROF=<dir>
// writes a V8 CPU profile of the steady passes alone (bench/tools/profile-summary.mjs reads it).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { runBench, tempDir } from '../lib/run.mjs';
import { printEnvironment, printTable, summarize, writeResult } from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const HOURS = Number(process.env.BENCH_HOURS ?? 72);
const TICKS = Number(process.env.BENCH_TICKS ?? 5);
const TARGET_PERCENT = 1;
const MIN = 60_000;
const HOUR = 60 * MIN;
const distRoot = path.resolve(process.env.BENCH_SERVER_DIST ?? 'server/dist');
const dist = (p) => import(pathToFileURL(path.join(distRoot, p)).href);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One rollup row of `checks` checks, one of every 500 down. */
const row = (monitorId, bucket, checks, i) => ({
  monitor_id: monitorId,
  bucket,
  checks,
  up: checks - (i % 500 === 0 ? 1 : 0),
  degraded: 0,
  down: i % 500 === 0 ? 1 : 0,
  latency_sum_us: checks * 100_000,
  latency_count: checks,
  latency_min_us: 90_000,
  latency_max_us: 110_000,
  latency_sketch: null,
});

await runBench('slo-eval', async () => {
  const { openDatabase } = await dist('db/database.js');
  const { repositories } = await dist('db/repositories/index.js');
  const { evaluate } = await dist('slos/job.js');
  const { SloCounterStore } = await dist('slos/store.js');
  const { HttpMonitorInput, SloInput } = await import('@pagewatch/contract');
  const file = path.join(tempDir('slo-eval'), 'pagewatch.db');
  const database = await openDatabase({ kind: 'sqlite', file });
  try {
    const repos = repositories(database);
    let now = Math.floor(Date.now() / HOUR) * HOUR + 30 * MIN + 30_000;
    const seedStart = performance.now();
    const ids = [];
    for (let i = 0; i < MONITORS; i += 1) {
      const input = HttpMonitorInput.parse({
        type: 'http',
        name: `m${i}`,
        url: `http://127.0.0.1:9/${i}`,
      });
      ids.push((await repos.monitors.insert(input, now - HOURS * HOUR)).id);
    }
    for (const [i, id] of ids.entries()) {
      await repos.slos.create(
        SloInput.parse({
          name: `slo ${i}`,
          subject: { kind: 'monitor', monitorId: id },
          target: 99.9,
        }),
        now,
      );
    }
    const insert = async (table, rows) => {
      for (let i = 0; i < rows.length; i += 2000)
        await database.db
          .insertInto(table)
          .values(rows.slice(i, i + 2000))
          .execute();
    };
    const hourStart = Math.floor(now / HOUR) * HOUR;
    for (let h = 1; h <= HOURS; h += 1)
      await insert(
        'rollup_hour',
        ids.map((id, i) => row(id, hourStart - h * HOUR, 60, i + h)),
      );
    const minute = (m) => ids.map((id, i) => row(id, m, 1, i + m / MIN));
    const closed = Math.floor((now - 10_000) / MIN) * MIN;
    for (let m = closed - 60 * MIN; m < closed; m += MIN) await insert('rollup_minute', minute(m));
    const seedS = (performance.now() - seedStart) / 1000;
    console.log(
      `seeded ${MONITORS} monitors, SLOs and ${HOURS} h of rollups in ${seedS.toFixed(1)} s`,
    );

    const store = new SloCounterStore(() => now);
    const deps = { repos, clock: { now: () => now }, settings: null };
    let before = cpuMs();
    let t0 = performance.now();
    await evaluate(deps, store);
    const first = { cpuMs: cpuMs() - before, wallMs: performance.now() - t0 };
    const ticks = [];
    const profiles = [];
    const profiler = process.env.BENCH_CPU_PROF ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
    }
    for (let k = 0; k < TICKS; k += 1) {
      await insert('rollup_minute', minute(Math.floor((now - 10_000) / MIN) * MIN));
      now += MIN;
      if (profiler) await profiler.post('Profiler.start');
      before = cpuMs();
      t0 = performance.now();
      await evaluate(deps, store);
      ticks.push({ cpuMs: cpuMs() - before, wallMs: performance.now() - t0 });
      // Paused over the next minute's writes: the profile holds the passes only.
      if (profiler)
        await profiler.post('Profiler.stop').then(({ profile }) => profiles.push(profile));
    }
    if (profiler) {
      const dir = process.env.BENCH_CPU_PROF;
      fs.mkdirSync(dir, { recursive: true });
      for (const [k, profile] of profiles.entries()) {
        const file = path.join(dir, `slo-eval-pass${k + 1}-${Date.now()}.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
        console.log(`CPU profile of steady pass ${k + 1}: ${file}`);
      }
      profiler.disconnect();
    }
    const cpu = summarize(ticks.map((t) => t.cpuMs));
    const percent = (cpu.mean / 60_000) * 100;
    printEnvironment();
    printTable(`SLO evaluation, ${MONITORS} monitors and SLOs, SQLite`, [
      ['first pass (loads counters): CPU', `${first.cpuMs.toFixed(0)} ms`],
      ['first pass: wall', `${first.wallMs.toFixed(0)} ms`],
      [`steady pass, mean of ${TICKS}: CPU`, `${cpu.mean.toFixed(0)} ms`],
      ['steady pass: max CPU', `${cpu.max.toFixed(0)} ms`],
      ['steady pass: mean wall', `${summarize(ticks.map((t) => t.wallMs)).mean.toFixed(0)} ms`],
      ['CPU share of a 60 s interval', `${percent.toFixed(3)} % (target ≤ ${TARGET_PERCENT} %)`],
    ]);
    writeResult('slo-eval', {
      monitors: MONITORS,
      hours: HOURS,
      firstPassCpuMs: first.cpuMs,
      steadyCpuMs: cpu,
      cpuPercentAt60s: percent,
      targetPercent: TARGET_PERCENT,
      met: percent <= TARGET_PERCENT,
    });
  } finally {
    await database.close();
  }
});
