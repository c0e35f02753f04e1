// probe-throughput: one remote probe process (issue 16, ADR 56) against a real server.
//
// 1. Throughput: BENCH_MONITORS HTTP monitors (default 10,000) at BENCH_INTERVAL_S (10 s) of one
//    location, all run by one probe: checks per second as the target saw them, start lateness
//    (each arrival at the target minus its round's due time on the server's grid, so the
//    probe's own figure is not trusted), the probe's CPU per check and RSS from /proc.
// 2. Edit → running: BENCH_EDITS monitors get a new URL through the API; the time until the
//    target sees the new URL (the server's assignment poll, the stream, the probe's upsert).
// 3. Replay: BENCH_REPLAY_MONITORS (1,000) monitors at 60 s of another location, and a spool
//    holding the last hour of their results (60 rounds each, as a probe writes it while cut
//    off); a probe started on it replays it: wall time, the server's CPU, rows stored.
//
// The server runs with roles=web (no local scheduler: every check is the probe's), SQLite.
// The probe runs from the same build (BENCH_SERVER_DIST, default server/dist) as
// `pagewatch probe` runs it. Needs a build of the server (`npm run build`).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ensureSignedIn,
  freePort,
  getJson,
  readArrivals,
  root,
  runBench,
  serverMain,
  sleep,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import { openDataDb } from '../lib/alerts.mjs';
import { addProbeLocation, api, cliMain, spawnProbe, until } from '../lib/probe.mjs';
import { dueOf, roundAt } from '../lib/schedule.mjs';
import {
  cpuSeconds,
  mb,
  ms,
  percentile,
  printEnvironment,
  printTable,
  rssBytes,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S ?? 10);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 60);
const EDITS = Number(process.env.BENCH_EDITS ?? 20);
const REPLAY_MONITORS = Number(process.env.BENCH_REPLAY_MONITORS ?? 1_000);
const REPLAY_ROUNDS = 60;
const I = INTERVAL_S * 1000;

const upItem = (monitorId, due) => ({
  monitorId,
  roundAt: new Date(due).toISOString(),
  startedAt: new Date(due + 3).toISOString(),
  result: {
    outcome: 'up',
    latencyMs: 12,
    phases: { dns: 0.1, connect: 0.4, tls: null, ttfb: 11, download: 0.5 },
    httpStatus: 200,
    errorCode: null,
    errorMessage: null,
    responseSize: 2,
    certExpiresAt: null,
  },
});

const dist = (p) => import(pathToFileURL(path.join(path.dirname(serverMain), p)).href);

/**
 * Monitors written straight into a fresh data dir through the build's repositories (as
 * location-ingest does): creating 11,000 through the API takes longer than the bench itself on
 * a loaded machine. Returns the ids of both groups.
 */
async function seedMonitors(dataDir, target) {
  const { openDatabase } = await dist('db/database.js');
  const { repositories } = await dist('db/repositories/index.js');
  const { HttpMonitorInput } = await import('@pagewatch/contract');
  const database = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'pagewatch.db') });
  try {
    const repos = repositories(database);
    const insert = async (i, interval) =>
      (
        await repos.monitors.insert(
          HttpMonitorInput.parse({
            type: 'http',
            name: `bench ${i}`,
            url: target.url(`/m/${i}`),
            interval,
            timeout: 5,
          }),
          Date.now(),
        )
      ).id;
    const ids = [];
    for (let i = 0; i < MONITORS; i += 1) ids.push(await insert(i, INTERVAL_S));
    const replayIds = [];
    for (let i = 0; i < REPLAY_MONITORS; i += 1) {
      replayIds.push(await insert(MONITORS + EDITS + i, 60));
    }
    return { ids, replayIds };
  } finally {
    await database.close();
  }
}

await runBench('probe-throughput', async () => {
  if (!fs.existsSync(cliMain)) throw new Error(`${cliMain} is missing: run \`npm run build\``);
  printEnvironment();
  const target = await startTarget({ compact: true });
  const dataDir = tempDir('probe-throughput');
  console.log(`seeding ${MONITORS} monitors at ${INTERVAL_S} s and ${REPLAY_MONITORS} at 60 s…`);
  const { ids, replayIds } = await seedMonitors(dataDir, target);
  const port = await freePort();
  const server = spawnServer({ dataDir, port, env: { PAGEWATCH_ROLES: 'web' } });
  await waitHealthy(port, server, { timeoutMs: 180_000 });
  await ensureSignedIn(port);
  const serverUrl = `http://127.0.0.1:${port}`;
  const db = openDataDb(dataDir);

  // ── 1. throughput ──
  const bench = await addProbeLocation(port, 'Bench');
  const assign = db.prepare(
    'insert into monitor_locations (monitor_id, location_id) values (?, ?)',
  );
  db.transaction(() => ids.forEach((id) => assign.run(id, bench.locationId)))();

  const probe = spawnProbe(
    ['--server', serverUrl, '--token', bench.token, '--spool-dir', tempDir('probe-spool')],
    'probe',
  );
  await until(
    'the probe snapshot',
    () => probe.logLines.some((l) => l.includes(`assignment: ${MONITORS} monitors`)),
    180_000,
  );
  // The snapshot runs every monitor's current round at once; the grid takes over after that.
  await sleep(2 * I);
  let seen = (await readArrivals(target)).keys.length;
  const t0 = Date.now();
  const cpu0 = cpuSeconds(probe.pid);
  const scpu0 = cpuSeconds(server.pid);
  const rss = [];
  while (Date.now() - t0 < DURATION_S * 1000) {
    await sleep(1000);
    rss.push(rssBytes(probe.pid));
  }
  const t1 = Date.now();
  const cpu1 = cpuSeconds(probe.pid);
  const scpu1 = cpuSeconds(server.pid);
  await sleep(3000);
  const arrivals = await readArrivals(target, seen);
  seen += arrivals.keys.length;
  const lateness = [];
  for (let k = 0; k < arrivals.keys.length; k += 1) {
    const at = arrivals.times[k];
    if (at < t0 || at >= t1) continue;
    const id = ids[arrivals.keys[k]];
    lateness.push(at - dueOf(id, I, roundAt(id, I, at)));
  }
  const checks = lateness.length;
  const expected = (MONITORS * (t1 - t0)) / I;
  const perSecond = checks / ((t1 - t0) / 1000);
  const p99 = percentile(lateness, 99);
  const heartbeat = (await getJson(port, '/api/v1/locations')).items.find(
    (l) => l.id === bench.locationId,
  )?.probes[0];
  const throughput = {
    monitors: MONITORS,
    intervalS: INTERVAL_S,
    windowS: (t1 - t0) / 1000,
    checks,
    checksRunPct: (100 * checks) / expected,
    checksPerSecond: perSecond,
    latenessP50Ms: percentile(lateness, 50),
    latenessP99Ms: p99,
    latenessMaxMs: lateness.reduce((a, b) => Math.max(a, b), 0),
    probeReportedLatenessP99Ms: heartbeat?.latenessP99Ms ?? null,
    probeCpuCores: (cpu1 - cpu0) / ((t1 - t0) / 1000),
    probeCpuUsPerCheck: ((cpu1 - cpu0) * 1e6) / Math.max(1, checks),
    probeRssMaxBytes: Math.max(...rss),
    serverCpuCores: (scpu1 - scpu0) / ((t1 - t0) / 1000),
  };
  printTable('one probe: checks, start lateness (target arrival − due), CPU and RSS', [
    ['figure', 'value', 'goal'],
    ['checks/s', perSecond.toFixed(0), `≥ 1,000 (${verdict(perSecond >= 1000)})`],
    ['checks run / due', `${throughput.checksRunPct.toFixed(1)} %`, ''],
    ['lateness p50', ms(throughput.latenessP50Ms), ''],
    ['lateness p99', ms(p99), `≤ 1,000 ms (${verdict(p99 <= 1000)})`],
    ['lateness max', ms(throughput.latenessMaxMs), ''],
    ['lateness p99 (probe heartbeat)', ms(throughput.probeReportedLatenessP99Ms), ''],
    ['probe CPU', `${throughput.probeCpuCores.toFixed(2)} cores`, ''],
    ['probe CPU per check', `${throughput.probeCpuUsPerCheck.toFixed(0)} µs`, ''],
    ['probe RSS max', mb(throughput.probeRssMaxBytes), ''],
    ['server CPU (ingest)', `${throughput.serverCpuCores.toFixed(2)} cores`, ''],
  ]);

  // ── 2. edit → running on the probe ──
  const edits = [];
  for (let k = 0; k < EDITS; k += 1) {
    const id = ids[k];
    const key = MONITORS + k;
    const sent = Date.now();
    await api(port, 'PUT', `/api/v1/monitors/${id}`, {
      type: 'http',
      name: `bench edited ${k}`,
      url: target.url(`/m/${key}`),
      interval: INTERVAL_S,
      timeout: 5,
      retries: 1,
      paused: false,
    });
    let hit = null;
    await until(
      `edit ${k} running`,
      async () => {
        const a = await readArrivals(target, seen);
        seen += a.keys.length;
        for (let j = 0; j < a.keys.length; j += 1) if (a.keys[j] === key) hit = a.times[j];
        return hit !== null;
      },
      60_000,
    );
    edits.push(hit - sent);
  }
  const editP99 = percentile(edits, 99);
  printTable('edit → running on the probe (PUT answered … target sees the new URL)', [
    ['figure', 'value', 'goal'],
    ['edits', String(EDITS), ''],
    ['p50', ms(percentile(edits, 50)), ''],
    ['p99', ms(editP99), `≤ 2,000 ms (${verdict(editP99 <= 2000)})`],
    ['max', ms(Math.max(...edits)), ''],
  ]);
  await stopChild(probe);
  db.prepare('delete from monitor_locations').run();

  // ── 3. replay of a spooled hour ──
  const replay = await addProbeLocation(port, 'Replay');
  db.transaction(() => replayIds.forEach((id) => assign.run(id, replay.locationId)))();
  // The spool as a probe leaves it after an hour cut off: one batch file per round of all
  // monitors (the reporter's batches are 500; the server takes up to 1,000), oldest first.
  const spoolDir = tempDir('probe-replay-spool');
  const startedAt = Date.now();
  let spooled = 0;
  for (let r = REPLAY_ROUNDS; r >= 1; r -= 1) {
    const items = replayIds.map((id) =>
      upItem(id, dueOf(id, 60_000, roundAt(id, 60_000, startedAt) - r)),
    );
    const at = startedAt - r * 60_000 + 61_000;
    for (let part = 0; part < items.length; part += 500) {
      const batch = items.slice(part, part + 500);
      const seq = String(REPLAY_ROUNDS * 4 - r * 4 + part / 500 + 1).padStart(9, '0');
      fs.writeFileSync(
        path.join(spoolDir, `${at}-${seq}-${batch.length}.json`),
        JSON.stringify(batch),
      );
      spooled += batch.length;
    }
  }
  const countReplayed = () =>
    db
      .prepare('select count(*) as n from check_results where location_id = ? and at < ?')
      .get(replay.locationId, startedAt).n;
  const rcpu0 = cpuSeconds(server.pid);
  const r0 = Date.now();
  const replayProbe = spawnProbe(
    [
      '--server',
      serverUrl,
      '--token',
      replay.token,
      '--spool-dir',
      spoolDir,
      '--spool-max-age',
      '7200',
    ],
    'replay probe',
  );
  await until(
    'the spool sent',
    () => fs.readdirSync(spoolDir).filter((f) => f.endsWith('.json')).length === 0,
    600_000,
  );
  const r1 = Date.now();
  const rcpu1 = cpuSeconds(server.pid);
  const stored = countReplayed();
  await stopChild(replayProbe);
  const replayFigures = {
    monitors: REPLAY_MONITORS,
    rounds: REPLAY_ROUNDS,
    spooled,
    stored,
    wallS: (r1 - r0) / 1000,
    serverCpuS: rcpu1 - rcpu0,
    serverCpuUsPerResult: ((rcpu1 - rcpu0) * 1e6) / Math.max(1, spooled),
  };
  printTable('replay of one hour spooled (from the probe start to an empty spool)', [
    ['figure', 'value'],
    ['results spooled', String(spooled)],
    ['results stored (spooled rounds)', String(stored)],
    ['wall time (incl. probe start)', `${replayFigures.wallS.toFixed(1)} s`],
    ['server CPU', `${replayFigures.serverCpuS.toFixed(1)} s`],
    ['server CPU per result', `${replayFigures.serverCpuUsPerResult.toFixed(0)} µs`],
  ]);
  db.close();
  await stopChild(server);
  writeResult('probe-throughput', {
    throughput,
    edits: { count: EDITS, p50Ms: percentile(edits, 50), p99Ms: editP99, samplesMs: edits },
    replay: replayFigures,
    root,
  });
});
