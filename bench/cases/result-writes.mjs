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
import { benchSchema, pgQuery, postgresUrl } from '../lib/postgres.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 500;
const ENGINE = process.env.BENCH_ENGINE ?? 'sqlite';
const TARGET_US = 200;

const dist = (p) => import(pathToFileURL(path.resolve('server/dist', p)).href);

await runBench('result-writes', async () => {
  const { openDatabase } = await dist('db/database.js');
  const { repositories } = await dist('db/repositories/index.js');
  const { ResultWriter } = await dist('engine/result-writer.js');
  const { HttpMonitorInput } = await import('@pagewatch/contract');
  const schema = ENGINE === 'postgres' ? await benchSchema() : null;
  const target = schema
    ? { kind: 'postgres', url: namedUrl(schema.schema), schema: schema.schema }
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
    // The production writer: batches of 500 and, on PostgreSQL, several batches at once
    // (BENCH_LANES overrides how many).
    let taken = 0;
    let duplicates = 0;
    const silent = { warn() {}, debug() {}, info() {}, error() {} };
    const writer = new ResultWriter(repos.results, (w) => (taken += w.length), silent, {
      maxBatch: BATCH,
      maxQueue: MONITORS + 1,
      onDuplicate: (n) => (duplicates += n),
      ...(process.env.BENCH_LANES ? { lanes: Number(process.env.BENCH_LANES) } : {}),
    });
    for (let r = 0; r < ROUNDS; r += 1) {
      const pg0 = schema ? await backendsCpuUs(schema.schema) : 0;
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
        for (const w of writes) writer.enqueue(w);
      }
      await writer.flush();
      if (duplicates > 0 || taken !== (r + 1) * ids.length) {
        throw new Error(`round ${r + 1}: ${taken} written, ${duplicates} taken as duplicates`);
      }
      const cpu = process.cpuUsage(cpu0);
      const wallMs = performance.now() - t0;
      const pgUs = schema ? (await backendsCpuUs(schema.schema)) - pg0 : null;
      perRound.push({
        round: r + 1,
        wallMs,
        cpuUsPerResult: (cpu.user + cpu.system) / ids.length,
        postgresUsPerResult: pgUs === null ? null : pgUs / ids.length,
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
    const lanes = process.env.BENCH_LANES ?? repos.results.parallelBatches;
    printTable(
      `result-writes on ${ENGINE}: ${MONITORS} monitors, batches of ${BATCH}, ${lanes} at once`,
      [
        ['round', 'CPU per result, wall'],
        ...perRound.map((r) => [
          `round ${r.round}`,
          `${r.cpuUsPerResult.toFixed(0)} µs CPU / result` +
            (r.postgresUsPerResult === null
              ? ''
              : ` (+ ${r.postgresUsPerResult.toFixed(0)} µs in PostgreSQL)`) +
            `, ${(r.wallMs / 1000).toFixed(2)} s wall` +
            ` (${Math.round(ids.length / (r.wallMs / 1000))} results/s)`,
        ]),
      ],
    );
    console.log(
      `steady CPU per result: ${cpuUs.toFixed(0)} µs (target ≤ ${TARGET_US} µs): ${cpuUs <= TARGET_US ? 'met' : 'MISSED'}`,
    );
    writeResult(`result-writes-${ENGINE}`, {
      engine: ENGINE,
      monitors: MONITORS,
      lanes: Number(lanes),
      perRound,
      cpuUs,
    });
  } finally {
    await database.close();
    await schema?.drop();
  }
});

/** The database URL with the schema as application_name, so its backends can be found. */
function namedUrl(name) {
  const url = new URL(postgresUrl);
  url.searchParams.set('application_name', name);
  return String(url);
}

/** CPU time (µs) the PostgreSQL backends serving `name`'s connections have used so far. */
async function backendsCpuUs(name) {
  const rows = await pgQuery('select pid from pg_stat_activity where application_name = $1', [
    name,
  ]);
  const tick = 100; // USER_HZ on Linux
  let us = 0;
  for (const { pid } of rows) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      us += ((Number(fields[11]) + Number(fields[12])) / tick) * 1e6;
    } catch {
      // ended since the list was made
    }
  }
  return us;
}
