// alert-crash: issue 5's "kill -9 the server while alerts are queued and prove none is lost on
// restart", BENCH_RUNS times (default 20). Each run seeds a data dir whose N monitors just went
// DOWN (written by the server's own result writer, so N alerts sit in the outbox), starts
// server/dist/main.js, SIGKILLs it at a random moment while a slow webhook is being sent to,
// restarts it on the same data dir and waits until the outbox is drained. Duplicates are
// allowed (at-least-once); a lost alert fails the benchmark.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HttpMonitorInput } from '@pagewatch/contract';
import { freePort, root, runBench, sleep, spawnServer, tempDir, stopChild } from '../lib/run.mjs';
import { printEnvironment, printTable, summarize, writeResult } from '../lib/stats.mjs';
import { insertWebhook, openDataDb, startAlertPeer } from '../lib/alerts.mjs';

const NAME = 'alert-crash';
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 40);
const HOOK_DELAY_MS = 200;

const dist = (p) => import(pathToFileURL(path.join(root, 'server/dist', p)).href);
const { openDatabase } = await dist('db/database.js');
const { repositories } = await dist('db/repositories/index.js');
const { applyOutcome, initialState } = await dist('domain/monitor-state.js');

const run = (outcome) => ({
  outcome,
  latencyMs: outcome === 'up' ? 3 : null,
  phases: { dns: null, connect: null, tls: null, ttfb: null, download: null },
  httpStatus: outcome === 'up' ? 200 : null,
  errorCode: outcome === 'up' ? null : 'connect_refused',
  errorMessage: outcome === 'up' ? null : 'Connection refused',
  responseSize: null,
  certExpiresAt: null,
});

/** N monitors, each with an UP then a confirmed DOWN written by the real writer. */
async function seed(dataDir, site, hook) {
  const database = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'pagewatch.db') });
  const repos = repositories(database);
  const raw = openDataDb(dataDir);
  const channel = insertWebhook(raw, hook);
  const now = Date.now();
  for (let i = 0; i < ALERTS; i++) {
    const input = HttpMonitorInput.parse({
      type: 'http',
      name: `crash ${i}`,
      url: site,
      retries: 0,
      interval: 10,
      timeout: 2,
    });
    const m = await repos.monitors.insert(input, now);
    raw
      .prepare('insert into monitor_channels (monitor_id, channel_id) values (?, ?)')
      .run(m.id, channel);
    let state = initialState;
    for (const [k, outcome] of ['up', 'down'].entries()) {
      const at = now - 60_000 + k * 1000;
      const r = run(outcome);
      const t = applyOutcome(state, outcome, 0, { at, code: r.errorCode, message: r.errorMessage });
      state = t.next;
      await repos.results.writeBatch([
        {
          monitorId: m.id,
          at,
          run: r,
          status: state.status,
          failures: state.failures,
          recent: [],
          flip: t.flip,
          firstFailure: state.firstFailure ?? null,
        },
      ]);
    }
  }
  raw.close();
  await database.close();
}

function undelivered(dataDir) {
  const db = openDataDb(dataDir);
  try {
    return db
      .prepare(`select count(*) as n from deliveries where state in ('queued','retrying')`)
      .get().n;
  } finally {
    db.close();
  }
}

async function until(pred, timeoutMs, what) {
  const end = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

await runBench(NAME, async () => {
  console.log(
    `${NAME}: ${RUNS} runs × ${ALERTS} queued alerts, webhook answering in ${HOOK_DELAY_MS} ms`,
  );
  const env = printEnvironment();
  const rows = [
    [
      'run',
      'killed after',
      'received before kill',
      'undelivered at kill',
      'received',
      'lost',
      'duplicates',
      'drain after restart',
    ],
  ];
  const totals = { runs: 0, expected: 0, lost: 0, duplicates: 0 };
  const drains = [];
  for (let i = 1; i <= RUNS; i++) {
    const peer = await startAlertPeer({ delayMs: HOOK_DELAY_MS });
    const dataDir = tempDir('crash');
    await seed(dataDir, `http://127.0.0.1:${await freePort()}/`, peer.hook);
    const env1 = { PAGEWATCH_NOTIFY_TIMEOUT_S: '1' };
    const first = spawnServer({ dataDir, port: await freePort(), env: env1 });
    await until(async () => (await peer.received()).length > 0, 30_000, 'the first alert');
    const wait = Math.random() * ((ALERTS * HOOK_DELAY_MS) / 4) * 0.8;
    await sleep(wait);
    first.kill('SIGKILL');
    await first.exited;
    const before = (await peer.received()).length;
    const atKill = undelivered(dataDir);
    const restartedAt = Date.now();
    const second = spawnServer({ dataDir, port: await freePort(), env: env1 });
    await until(() => undelivered(dataDir) === 0, 60_000, 'the outbox to drain');
    const drainMs = Date.now() - restartedAt;
    await stopChild(second);
    const downs = (await peer.received()).filter((r) => r.kind === 'monitor.down');
    const distinct = new Set(downs.map((d) => d.monitorId));
    const lost = ALERTS - distinct.size;
    const duplicates = downs.length - distinct.size;
    await stopChild(peer.child);
    totals.runs += 1;
    totals.expected += ALERTS;
    totals.lost += lost;
    totals.duplicates += duplicates;
    drains.push(drainMs);
    rows.push([
      i,
      `${Math.round(wait)} ms`,
      before,
      atKill,
      downs.length,
      lost,
      duplicates,
      `${drainMs} ms`,
    ]);
    console.log(`  run ${i}: ${downs.length} received, ${lost} lost, ${duplicates} duplicates`);
  }
  printTable('runs', rows);
  printTable('total', [
    ['runs', 'alerts expected', 'lost', 'duplicates', 'drain p50 / max'],
    [
      totals.runs,
      totals.expected,
      totals.lost,
      totals.duplicates,
      `${summarize(drains).p50} / ${summarize(drains).max} ms`,
    ],
  ]);
  writeResult(
    NAME,
    { ...totals, alertsPerRun: ALERTS, hookDelayMs: HOOK_DELAY_MS, drainMs: summarize(drains) },
    env,
  );
  if (totals.lost > 0) throw new Error(`${totals.lost} alerts lost`);
});
