// result-writes: the cost of the result write path alone (no checks, no HTTP), which on SQLite
// with PAGEWATCH_WORKERS > 1 the primary pays for every check of the machine (ADR 25). Writes
// BENCH_ROUNDS rounds of one up result for each of BENCH_MONITORS monitors in the result
// writer's batches of 500 (state claim, result row, three rollup levels) and reports CPU µs
// per result. 100,000 monitors at 60 s are 1,667 results a second: at 600 µs each the writer
// alone would take a whole core. BENCH_ENGINE=postgres writes to PostgreSQL instead.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runBench, tempDir } from '../lib/run.mjs';
import { printEnvironment, printTable, writeResult } from '../lib/stats.mjs';
import { benchSchema, postgresUrl } from '../lib/postgres.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 500;
const ENGINE = process.env.BENCH_ENGINE ?? 'sqlite';
const TARGET_US = 200;

const dist = (p) => import(pathToFileURL(path.resolve('server/dist', p)).href);

await runBench('result-writes', async () => {
  const { openDatabase } = await dist('db/database.js');
  const { repositories } = await dist('db/repositories/index.js');
  const { HttpMonitorInput } = await import('@pagewatch/contract');
  const schema = ENGINE === 'postgres' ? await benchSchema() : null;
  const target = schema
    ? { kind: 'postgres', url: postgresUrl, schema: schema.schema }
    : { kind: 'sqlite', file: path.join(tempDir('result-writes'), 'pagewatch.db') };
  const database = await openDatabase(target);
  try {
    const repos = repositories(database);
    const ids = [];
    const input = (i) =>
      HttpMonitorInput.parse({ type: 'http', name: `m${i}`, url: `http://127.0.0.1:9/${i}` });
    for (let i = 0; i < MONITORS; i += 1) {
      ids.push((await repos.monitors.insert(input(i), Date.now())).id);
    }
    const start = Math.floor(Date.now() / 60_000) * 60_000 - ROUNDS * 60_000;
    // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the writes alone (not of the seeding).
    const profiler = process.env.BENCH_CPU_PROF ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const perRound = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < ids.length; i += BATCH) {
        const writes = ids.slice(i, i + BATCH).map((monitorId, k) => {
          const at = start + r * 60_000 + ((i + k) % 60_000);
          return {
            monitorId,
            at,
            run: {
              outcome: 'up',
              latencyMs: 3 + ((i + k) % 17),
              phases: { dns: null, connect: 0.4, tls: null, ttfb: 2.1, download: 0.2 },
              httpStatus: 200,
              errorCode: null,
              errorMessage: null,
              responseSize: 2,
              certExpiresAt: null,
            },
            status: 'up',
            failures: 0,
            recent: [['up', 3]],
            flip: r === 0 ? { from: 'pending', to: 'up' } : null,
            round: { round: r + 1, roundDue: at, attempt: 0 },
          };
        });
        const written = await repos.results.writeBatch(writes);
        if (written.length !== writes.length) throw new Error('a write was taken as a duplicate');
      }
      const cpu = process.cpuUsage(cpu0);
      perRound.push({
        round: r + 1,
        wallMs: performance.now() - t0,
        cpuUsPerResult: (cpu.user + cpu.system) / ids.length,
      });
    }
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      const dir = process.env.BENCH_CPU_PROF;
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `result-writes-${ENGINE}-${Date.now()}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`CPU profile of the writes: ${file}`);
      profiler.disconnect();
    }
    // The first round also opens every monitor's rollup rows and flips it up: report the rest.
    const steady = perRound.slice(1);
    const cpuUs = steady.reduce((s, r) => s + r.cpuUsPerResult, 0) / Math.max(1, steady.length);
    printEnvironment();
    printTable(`result-writes on ${ENGINE}: ${MONITORS} monitors, batches of ${BATCH}`, [
      ['round', 'CPU per result, wall'],
      ...perRound.map((r) => [
        `round ${r.round}`,
        `${r.cpuUsPerResult.toFixed(0)} µs CPU / result, ${(r.wallMs / 1000).toFixed(2)} s wall`,
      ]),
    ]);
    console.log(
      `steady CPU per result: ${cpuUs.toFixed(0)} µs (target ≤ ${TARGET_US} µs): ${cpuUs <= TARGET_US ? 'met' : 'MISSED'}`,
    );
    writeResult(`result-writes-${ENGINE}`, { engine: ENGINE, monitors: MONITORS, perRound, cpuUs });
  } finally {
    await database.close();
    await schema?.drop();
  }
});
