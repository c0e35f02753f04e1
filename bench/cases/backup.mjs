// backup: BENCH_MONITORS (10,000) HTTP monitors every 60 s on SQLite over BENCH_HISTORY_DAYS (1)
// days of history (about 1.4 GB at 10,000 monitors), then a backup downloaded while they run.
// Measures the backup's time and size, check start lateness during it against an equal window
// after it (bar: p99 ≤ 1 s), the event loop, and a restore of the file into a new data folder.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { generateHistory } from '../lib/history-data.mjs';
import {
  createMonitors,
  ensureSignedIn,
  freePort,
  now,
  request,
  root,
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
  buckets,
  histogramQuantile,
  mb,
  metric,
  ms,
  parseProm,
  printEnvironment,
  printTable,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const NAME = 'backup';
const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const DAYS = Number(process.env.BENCH_HISTORY_DAYS ?? 1);
const RESTORE = process.env.BENCH_RESTORE !== '0';
const LATENESS = 'pagewatch_check_start_lateness_seconds';
const BAR_S = 1;

async function scrape(port) {
  const res = await request(port, '/metrics');
  return { at: Date.now(), samples: parseProm(String(res.body)) };
}

/** Streams GET /api/v1/backup into a file, as `npx pagewatch backup` does. */
function download(port, secret, file) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/backup',
        headers: { authorization: `Bearer ${secret}` },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`backup → ${res.statusCode}`));
        pipeline(res, fs.createWriteStream(file)).then(
          () => resolve({ ms: now() - t0, bytes: fs.statSync(file).size }),
          reject,
        );
      },
    );
    req.on('error', reject);
  });
}

function fileBytes(file) {
  let total = 0;
  for (const f of [file, `${file}-wal`])
    total += fs.statSync(f, { throwIfNoEntry: false })?.size ?? 0;
  return total;
}

/** Lateness quantiles and the worst event-loop delay between two scrapes. */
function window(from, to) {
  const bs = buckets(to.samples, LATENESS, from.samples);
  const q = (p) => histogramQuantile(bs, p)?.value ?? null;
  const started =
    metric(to.samples, `${LATENESS}_count`) - metric(from.samples, `${LATENESS}_count`);
  return {
    seconds: (to.at - from.at) / 1000,
    started,
    p50: q(0.5),
    p99: q(0.99),
    loopMaxS: metric(to.samples, 'nodejs_eventloop_lag_max_seconds'),
  };
}

await runBench(NAME, async () => {
  console.log(`${NAME}: ${MONITORS} monitors at 60 s, ${DAYS} day(s) of history, on SQLite`);
  const env = printEnvironment();
  const dataDir = tempDir('backup');
  const dbFile = path.join(dataDir, 'pagewatch.db');
  const target = await startTarget({ compact: true });

  // A web-only server migrates, creates the owner, the monitors and a key, then steps aside.
  const setupPort = await freePort();
  let child = spawnServer({ dataDir, port: setupPort, env: { PAGEWATCH_ROLES: 'web' } });
  await waitHealthy(setupPort, child);
  await ensureSignedIn(setupPort);
  const created = await createMonitors(setupPort, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: 60,
    timeout: 5,
    parallel: 8,
  });
  const key = await request(setupPort, '/api/v1/api-keys', {
    method: 'POST',
    body: { name: 'backup bench', role: 'owner', expiresAt: null },
  });
  const secret = JSON.parse(String(key.body)).secret;
  await stopChild(child);
  console.log(`created ${MONITORS} monitors in ${(created.ms / 1000).toFixed(0)} s`);

  const g0 = now();
  const rows = DAYS > 0 ? generateHistory(dbFile, { now: Date.now(), days: DAYS }) : null;
  const generateS = (now() - g0) / 1000;
  const dbBytes = fileBytes(dbFile);
  console.log(
    `history: ${JSON.stringify(rows)} in ${generateS.toFixed(0)} s; database ${mb(dbBytes)}`,
  );

  const port = await freePort();
  child = spawnServer({ dataDir, port });
  await waitHealthy(port, child, { timeoutMs: 120_000 });
  await ensureSignedIn(port, setupPort);
  // Every monitor's first check is spread over its first minute; measure after it.
  await sleep(75_000);

  const before = await scrape(port);
  const backupFile = path.join(tempDir('backup-file'), 'bench.pagewatch-backup.gz');
  console.log('backing up while the checks run…');
  const taken = await download(port, secret, backupFile);
  const after = await scrape(port);
  const during = window(before, after);
  console.log(
    `backup: ${mb(taken.bytes)} in ${(taken.ms / 1000).toFixed(1)} s; same time again without…`,
  );
  await sleep(Math.max(30_000, taken.ms));
  const quiet = window(after, await scrape(port));
  const complaints = serverComplaints(child);
  await stopChild(child, 'SIGTERM', 30_000);

  printTable(`backup of ${mb(dbBytes)} of SQLite (${MONITORS} monitors, ${DAYS} day(s))`, [
    ['measure', 'value'],
    ['backup time (GET /api/v1/backup to the last byte)', `${(taken.ms / 1000).toFixed(1)} s`],
    [
      'backup size (gzip level 4)',
      `${mb(taken.bytes)} (${((100 * taken.bytes) / dbBytes).toFixed(1)} % of the database)`,
    ],
    ['throughput', `${mb((dbBytes * 1000) / taken.ms)}/s of database`],
  ]);
  printTable('check start lateness', [
    ['window', 'length', 'checks started', 'p50', 'p99', 'event loop max'],
    ...[
      ['during the backup', during],
      ['after it (no backup)', quiet],
    ].map(([label, w]) => [
      label,
      `${w.seconds.toFixed(0)} s`,
      w.started,
      ms(w.p50 * 1000),
      ms(w.p99 * 1000),
      ms(w.loopMaxS * 1000),
    ]),
  ]);
  const met = during.p99 !== null && during.p99 <= BAR_S;
  console.log(
    `target: p99 start lateness during the backup ≤ 1 s: ${verdict(met)} (${ms(during.p99 * 1000)})`,
  );
  let restore = null;
  if (RESTORE) {
    const restoreDir = tempDir('restore');
    fs.copyFileSync(path.join(dataDir, 'secret.key'), path.join(restoreDir, 'secret.key'));
    const r0 = now();
    const cli = spawnNode([path.join(root, 'server/bin/pagewatch.mjs'), 'restore', backupFile], {
      label: 'restore',
      env: { PAGEWATCH_DATA_DIR: restoreDir },
    });
    const code = await new Promise((resolve) => cli.on('exit', resolve));
    restore = { ms: now() - r0, code, bytes: fileBytes(path.join(restoreDir, 'pagewatch.db')) };
    console.log(cli.logLines.join('\n'));
  }

  if (restore)
    console.log(
      `restore (npx pagewatch restore into a new data folder, exit ${restore.code}): ${(restore.ms / 1000).toFixed(1)} s → ${mb(restore.bytes)}`,
    );
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  writeResult(
    NAME,
    {
      settings: { MONITORS, DAYS },
      createMs: created.ms,
      history: rows,
      generateS,
      databaseBytes: dbBytes,
      backup: taken,
      restore,
      during,
      quiet,
      met,
      complaints: complaints.slice(0, 50),
    },
    env,
  );
  await target.close?.();
});
