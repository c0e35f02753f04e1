// location-ingest: the server ingesting results from 3 locations for BENCH_MONITORS monitors
// (default 10,000) at 60 s (issue 16, ADR 58): each location's round arrives as a probe's
// batches of 500 through recordLocationResults (history row, rollups, the location's verdict,
// the quorum decision through the result writer's path). Reports CPU µs and rows written per
// result, and what that is at the real rate (3 × monitors / 60 results a second). SQLite;
// BENCH_SERVER_DIST measures a build of one's own.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { root, runBench, tempDir } from '../lib/run.mjs';
import { printEnvironment, printTable, writeResult } from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOCATIONS = ['eu-west', 'us-east', 'ap-south'];
const BATCH = 500;
const I = 60_000;
const distDir = path.resolve(process.env.BENCH_SERVER_DIST ?? path.join(root, 'server/dist'));
const dist = (p) => import(pathToFileURL(path.join(distDir, p)).href);

await runBench('location-ingest', async () => {
  const { openDatabase } = await dist('db/database.js');
  const { repositories } = await dist('db/repositories/index.js');
  const { recordLocationResults, DecisionQueue } = await dist('engine/location-results.js');
  const { dueOf, roundAt } = await dist('domain/schedule.js');
  const { HttpMonitorInput } = await import('@pagewatch/contract');
  const file = path.join(tempDir('location-ingest'), 'pagewatch.db');
  const database = await openDatabase({ kind: 'sqlite', file });
  try {
    const repos = repositories(database);
    const { db } = database;
    for (const id of LOCATIONS) {
      await db.insertInto('locations').values({ id, name: id, created_at: Date.now() }).execute();
    }
    const ids = [];
    const input = (i) =>
      HttpMonitorInput.parse({ type: 'http', name: `m${i}`, url: `http://127.0.0.1:9/${i}` });
    for (let i = 0; i < MONITORS; i += 1) {
      ids.push((await repos.monitors.insert(input(i), Date.now())).id);
    }
    for (let i = 0; i < ids.length; i += 300) {
      const rows = ids
        .slice(i, i + 300)
        .flatMap((monitor_id) => LOCATIONS.map((location_id) => ({ monitor_id, location_id })));
      await db.insertInto('monitor_locations').values(rows).execute();
    }
    const silent = { warn() {}, debug() {}, info() {}, error() {} };
    // Each round is decided at its own time, a minute after the last (verdicts stay fresh).
    let clockNow = Date.now() - ROUNDS * I;
    const deps = {
      repos,
      clock: { now: () => clockNow },
      logger: silent,
      queue: new DecisionQueue(),
    };
    const changes = async () =>
      Number((await sql`select total_changes() as n`.execute(db)).rows[0].n);
    const perRound = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      const c0 = await changes();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let items = 0;
      for (const location of LOCATIONS) {
        for (let i = 0; i < ids.length; i += BATCH) {
          const batch = ids.slice(i, i + BATCH).map((monitorId, k) => {
            const due = dueOf(monitorId, I, roundAt(monitorId, I, clockNow));
            return {
              monitorId,
              roundAt: new Date(due).toISOString(),
              startedAt: new Date(due + 50).toISOString(),
              result: {
                outcome: 'up',
                latencyMs: 20 + ((i + k) % 30),
                phases: { dns: 1, connect: 2, tls: null, ttfb: 15, download: 1 },
                httpStatus: 200,
                errorCode: null,
                errorMessage: null,
                responseSize: 120,
                certExpiresAt: null,
              },
            };
          });
          const out = await recordLocationResults(deps, location, batch, { replayed: false });
          if (out.accepted !== batch.length) throw new Error(`refused: ${JSON.stringify(out)}`);
          items += batch.length;
        }
      }
      const cpu = process.cpuUsage(cpu0);
      const wallMs = performance.now() - t0;
      const rows = (await changes()) - c0;
      perRound.push({
        round: r + 1,
        items,
        wallMs,
        cpuUsPerResult: (cpu.user + cpu.system) / items,
        rowsPerResult: rows / items,
      });
      clockNow += I;
    }
    // The first round also opens rollup rows and flips every monitor from pending.
    const steady = perRound.slice(1);
    const avg = (f) => steady.reduce((s, x) => s + f(x), 0) / Math.max(1, steady.length);
    const cpuUs = avg((x) => x.cpuUsPerResult);
    const rowsPer = avg((x) => x.rowsPerResult);
    const rate = (LOCATIONS.length * MONITORS) / 60;
    printEnvironment();
    printTable(`location-ingest on sqlite: ${MONITORS} monitors × ${LOCATIONS.length} locations`, [
      ['round', 'per result, wall'],
      ...perRound.map((x) => [
        `round ${x.round}`,
        `${x.cpuUsPerResult.toFixed(0)} µs CPU, ${x.rowsPerResult.toFixed(2)} rows written, ` +
          `${(x.wallMs / 1000).toFixed(1)} s wall (${Math.round(x.items / (x.wallMs / 1000))}/s)`,
      ]),
    ]);
    console.log(
      `at 60 s: ${rate.toFixed(0)} results/s → ${((rate * cpuUs) / 1e6).toFixed(2)} of a core, ` +
        `${Math.round(rate * rowsPer)} rows written/s`,
    );
    writeResult('location-ingest-sqlite', {
      monitors: MONITORS,
      locations: LOCATIONS.length,
      perRound,
      cpuUs,
      rowsPerResult: rowsPer,
      coreShareAt60s: (rate * cpuUs) / 1e6,
      rowsPerSecondAt60s: rate * rowsPer,
    });
  } finally {
    await database.close();
  }
});
