// cold-start: wall time from spawning `node server/dist/main.js` to the first 200 from /healthz,
// with 1,000 HTTP monitors in the database. Target: ≤ 1 s.
import fs from 'node:fs';
import path from 'node:path';
import {
  createMonitors,
  freePort,
  getJson,
  now,
  preflight,
  request,
  runBench,
  serverComplaints,
  sleep,
  spawnNode,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  metric,
  mb,
  ms,
  parseProm,
  printEnvironment,
  printTable,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 1000;

/** Polls /metrics until the scheduler has loaded every monitor; null if it never does. */
async function waitScheduled(port, count, timeoutMs = 30_000) {
  const deadline = now() + timeoutMs;
  while (now() < deadline) {
    const res = await request(port, '/metrics');
    if (metric(parseProm(String(res.body)), 'pagewatch_monitors_scheduled') >= count) return now();
    await sleep(5);
  }
  return null;
}

/** Node's own floor on this machine: a bare http server spawned to its first answer. */
async function bareNodeStart() {
  const port = await freePort();
  const script = `require('http').createServer((q,s)=>s.end('ok')).listen(${port},'127.0.0.1')`;
  const t0 = now();
  const child = spawnNode(['-e', script], { label: 'bare node' });
  const healthy = await waitHealthy(port, child);
  await stopChild(child);
  return healthy - t0;
}

async function seed(dataDir, target) {
  const port = await freePort();
  const server = spawnServer({ dataDir, port });
  await waitHealthy(port, server);
  const created = await createMonitors(port, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: 10,
    timeout: 5,
  });
  const listed = await getJson(port, '/api/v1/monitors');
  if (listed.items.length !== MONITORS) {
    throw new Error(`expected ${MONITORS} monitors, the API lists ${listed.items.length}`);
  }
  const stopped = await stopChild(server, 'SIGTERM', 20_000);
  if (stopped.code !== 0) throw new Error(`seeding server exited with ${JSON.stringify(stopped)}`);
  return { created, complaints: serverComplaints(server) };
}

async function coldStart(dataDir) {
  const port = await freePort();
  const t0 = now();
  const server = spawnServer({ dataDir, port });
  const healthy = await waitHealthy(port, server, { everyMs: 5 });
  const scheduled = await waitScheduled(port, MONITORS);
  const stopped = await stopChild(server, 'SIGTERM', 20_000);
  return {
    healthzMs: healthy - t0,
    scheduledMs: scheduled === null ? null : scheduled - t0,
    stopMs: stopped.ms,
    exit: stopped.code,
    complaints: serverComplaints(server),
  };
}

await runBench('cold-start', async () => {
  console.log(`cold-start: ${MONITORS} monitors, ${RUNS} starts`);
  const env = printEnvironment();
  const server = await preflight();
  const dataDir = tempDir('cold-start');
  const target = await startTarget();

  console.log(`seeding ${MONITORS} monitors through the API…`);
  const seeded = await seed(dataDir, target);
  const dbBytes = fs.statSync(path.join(dataDir, 'pagewatch.db')).size;
  const createStats = summarize(seeded.created.latencies);
  console.log(
    `seeded in ${(seeded.created.ms / 1000).toFixed(1)} s (POST p50 ${ms(createStats.p50)}, p99 ${ms(createStats.p99)}); database ${mb(dbBytes)}`,
  );

  const bare = [];
  for (let i = 0; i < RUNS; i += 1) bare.push(await bareNodeStart());
  const runs = [];
  for (let i = 0; i < RUNS; i += 1) {
    const run = await coldStart(dataDir);
    runs.push(run);
    console.log(
      `start ${i + 1}: /healthz 200 after ${ms(run.healthzMs)}, all scheduled after ${ms(run.scheduledMs)}, SIGTERM → exit ${ms(run.stopMs)} (code ${run.exit})`,
    );
  }

  const healthz = summarize(runs.map((r) => r.healthzMs));
  const scheduled = summarize(runs.map((r) => r.scheduledMs ?? Infinity));
  const stop = summarize(runs.map((r) => r.stopMs));
  const floor = summarize(bare);
  printTable(`cold start with ${MONITORS} monitors (${RUNS} runs; spawn → first answer)`, [
    ['measure', 'min', 'median', 'max'],
    ['spawn → /healthz 200', ms(healthz.min), ms(healthz.p50), ms(healthz.max)],
    ['spawn → all monitors scheduled', ms(scheduled.min), ms(scheduled.p50), ms(scheduled.max)],
    ['SIGTERM → exit', ms(stop.min), ms(stop.p50), ms(stop.max)],
    ['bare node http server (floor)', ms(floor.min), ms(floor.p50), ms(floor.max)],
  ]);
  const met = healthz.max <= TARGET_MS;
  console.log(
    `\ntarget: spawn → /healthz ≤ ${TARGET_MS} ms: ${verdict(met)} (worst ${ms(healthz.max)})`,
  );
  const complaints = [...seeded.complaints, ...runs.flatMap((r) => r.complaints)];
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  writeResult(
    'cold-start',
    {
      monitors: MONITORS,
      server,
      databaseBytes: dbBytes,
      seed: { ms: seeded.created.ms, postLatencyMs: createStats },
      runs,
      healthzMs: healthz,
      scheduledMs: scheduled,
      stopMs: stop,
      bareNodeMs: floor,
      target: { healthzMaxMs: TARGET_MS, met },
      complaints: complaints.slice(0, 50),
    },
    env,
  );
});
