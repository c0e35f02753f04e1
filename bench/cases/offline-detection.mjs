// offline-detection (issue 16: "Offline detection ≤ 30 s"): a real server and a real probe
// process (`pagewatch probe` from the build); the probe is killed with SIGKILL at a random
// moment of its 5 s heartbeat cycle, BENCH_KILLS times (default 6), and restarted in between.
// Measures from the kill to: the location shown offline by GET /api/v1/locations (polled every
// 100 ms), its one incident's creation time, and, for scale, the last heartbeat before the kill.
// The server runs with default roles on SQLite; no monitors, so the figure is the detector's.
import { api, spawnProbe, until } from '../lib/probe.mjs';
import {
  ensureSignedIn,
  freePort,
  getJson,
  runBench,
  sleep,
  spawnServer,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  ms,
  percentile,
  printEnvironment,
  printTable,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const NAME = 'offline-detection';
const KILLS = Number(process.env.BENCH_KILLS ?? 6);
const GOAL_MS = 30_000;

await runBench(NAME, async () => {
  printEnvironment();
  const dataDir = tempDir(NAME);
  const port = await freePort();
  const server = spawnServer({ dataDir, port });
  await waitHealthy(port, server, { timeoutMs: 120_000 });
  await ensureSignedIn(port);
  const loc = await api(port, 'POST', '/api/v1/locations', { name: 'Away' });
  const { token } = await api(port, 'POST', `/api/v1/locations/${loc.id}/probes`, {
    name: 'away-1',
  });
  const location = async () =>
    (await getJson(port, '/api/v1/locations')).items.find((l) => l.id === loc.id);
  const spool = tempDir('offline-spool');
  const rows = [];
  for (let k = 0; k < KILLS; k += 1) {
    const probe = spawnProbe([
      '--server',
      `http://127.0.0.1:${port}`,
      '--token',
      token,
      '--spool-dir',
      spool,
    ]);
    await until(
      'the location online',
      async () => (await location())?.online === true,
      120_000,
      200,
    );
    // Past the first heartbeats, then a random point of the heartbeat cycle.
    await sleep(6_000 + Math.random() * 5_000);
    const before = await location();
    const lastBeat = Math.max(
      ...before.probes.map((p) => (p.lastHeartbeatAt ? Date.parse(p.lastHeartbeatAt) : 0)),
    );
    const killedAt = Date.now();
    await stopChild(probe, 'SIGKILL');
    const shown = await until(
      'the location offline',
      async () => ((await location())?.online === false ? Date.now() : null),
      90_000,
      100,
    );
    // The incident (and its one alert) is the offline sweep's, which runs every few seconds.
    const incident = await until(
      "the location's incident",
      async () =>
        (await getJson(port, '/api/v1/incidents?limit=50')).items.find(
          (i) => i.title === 'Location "Away" is offline' && Date.parse(i.createdAt) >= killedAt,
        ),
      90_000,
      100,
    );
    const since = Date.parse((await location()).offlineSince);
    rows.push({
      beatBeforeKillMs: killedAt - lastBeat,
      shownMs: shown - killedAt,
      offlineSinceMs: since - killedAt,
      incidentMs: Date.parse(incident.createdAt) - killedAt,
    });
    console.log(`  kill ${k + 1}: ${JSON.stringify(rows.at(-1))}`);
  }
  await stopChild(server);
  const col = (key) => rows.map((r) => r[key]).filter((v) => v !== null);
  const shown = col('shownMs');
  const incidents = col('incidentMs');
  const maxShown = Math.max(...shown);
  const maxIncident = Math.max(...incidents);
  printTable(`kill -9 of a location's only probe → offline (${KILLS} kills)`, [
    ['from the kill to', 'min', 'p50', 'max', 'goal'],
    [
      'GET /api/v1/locations says offline',
      ms(Math.min(...shown)),
      ms(percentile(shown, 50)),
      ms(maxShown),
      '',
    ],
    [
      'its incident created',
      ms(Math.min(...incidents)),
      ms(percentile(incidents, 50)),
      ms(maxIncident),
      `≤ 30 s (${verdict(maxIncident <= GOAL_MS)})`,
    ],
    [
      '(the last heartbeat before the kill)',
      ms(-Math.max(...col('beatBeforeKillMs'))),
      '',
      ms(-Math.min(...col('beatBeforeKillMs'))),
      '',
    ],
  ]);
  writeResult(NAME, { kills: rows, goalMs: GOAL_MS, metGoal: maxIncident <= GOAL_MS });
});
