// failover-kills: three full processes on one PostgreSQL schema share 180 HTTP monitors every
// 30 s (default lease timings: renew 2 s, expire 8 s). BENCH_KILLS times (20): three monitors
// (two of the victim's, one of another's) start failing, one process is killed with kill -9 a
// moment later, and is started again once the others cover it. Measures the time from the kill
// to the first check of one of the dead process's monitors by another, rounds skipped, and
// flips and alerts per failing monitor (exactly one each is the target). Needs
// PAGEWATCH_TEST_POSTGRES_URL or BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1/test).
import http from 'node:http';
import pg from 'pg';
import {
  ensureSignedIn,
  freePort,
  request,
  runBench,
  shareSignIn,
  sleep,
  spawnServer,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import { benchSchema, postgresUrl } from '../lib/postgres.mjs';
import { dueOf, partitionOf, roundAt } from '../lib/schedule.mjs';
import {
  buckets,
  histogramQuantile,
  metric,
  parseProm,
  percentile,
  printEnvironment,
  printTable,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const NAME = 'failover-kills';
const KILLS = Number(process.env.BENCH_KILLS ?? 20);
// Each kill uses three monitors that never failed before: two of the victim's, one other.
const MONITORS = Number(process.env.BENCH_MONITORS ?? 180);
const INTERVAL_S = 30;
const INTERVAL_MS = INTERVAL_S * 1000;

/** The monitored site and the webhook receiver, in this process: 503 for failing keys. */
async function startPeers() {
  const hits = [];
  const failing = new Set();
  const alerts = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/hook') {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        alerts.push({ key: String(req.headers['idempotency-key'] ?? ''), at: Date.now() });
        res.writeHead(200).end('{}');
      });
      return;
    }
    const id = Number(req.url.split('/').pop());
    hits.push({ id, at: Date.now() });
    res.writeHead(failing.has(id) ? 503 : 200, { connection: 'close' }).end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, hits, failing, alerts, close: () => server.close() };
}

await runBench(NAME, async () => {
  const env = printEnvironment();
  console.log(`${NAME}: ${MONITORS} monitors every ${INTERVAL_S} s, 3 processes, ${KILLS} kills`);
  const { schema, drop } = await benchSchema();
  const db = new pg.Client({ connectionString: postgresUrl });
  await db.connect();
  const q = (text, values) => db.query(text.replaceAll('$s.', `${schema}.`), values);
  const peers = await startPeers();
  const serverEnv = {
    PAGEWATCH_DATABASE_URL: postgresUrl,
    PAGEWATCH_DATABASE_SCHEMA: schema,
    PAGEWATCH_SECRET: 'bench-secret-0123456789abcdefghijkl',
    PAGEWATCH_WORKERS: '1',
    PAGEWATCH_LOG_LEVEL: 'warn',
  };
  const nodes = [];
  const start = async (slot) => {
    const port = await freePort();
    const child = spawnServer({ dataDir: tempDir('failover'), port, env: serverEnv });
    await waitHealthy(port, child, { timeoutMs: 60_000 });
    if (slot > 0) shareSignIn(nodes[0].port, port);
    nodes[slot] = { child, port, pid: child.pid };
  };
  /** Monitor id → the process slot whose member holds its partition now (live leases). */
  const owners = async () => {
    const { rows } = await q(
      `select p.id as partition, m.name from $s.cluster_partitions p join $s.cluster_members m on m.id = p.owner
       where p.expires_at > (extract(epoch from statement_timestamp()) * 1000)::bigint`,
    );
    const slotOf = new Map(
      rows.map((r) => [r.partition, nodes.findIndex((n) => n && r.name.endsWith(`:${n.pid}`))]),
    );
    return new Map(ids.map((id) => [id, slotOf.get(partitionOf(id)) ?? -1]));
  };
  let ids = [];
  const unrecorded = { count: 0 };
  const figures = {
    kills: 0,
    takeoverMs: [],
    skipped: 0,
    extraFlips: 0,
    missingFlips: 0,
    extraAlerts: 0,
    missingAlerts: 0,
    rounds: 0,
  };
  try {
    await Promise.all([start(0)]);
    await ensureSignedIn(nodes[0].port);
    const ch = await request(nodes[0].port, '/api/v1/notification-channels', {
      method: 'POST',
      body: {
        kind: 'webhook',
        name: 'hook',
        config: { url: `http://127.0.0.1:${peers.port}/hook` },
      },
    });
    if (ch.status !== 201) throw new Error(`channel → ${ch.status}: ${ch.body}`);
    const channelId = JSON.parse(String(ch.body)).id;
    for (let i = 0; i < MONITORS; i++) {
      const res = await request(nodes[0].port, '/api/v1/monitors', {
        method: 'POST',
        body: {
          type: 'http',
          name: `failover ${i}`,
          url: `http://127.0.0.1:${peers.port}/m/${i}`,
          interval: INTERVAL_S,
          timeout: 5,
          retries: 0,
          channelIds: [channelId],
        },
      });
      if (res.status !== 201) throw new Error(`monitor → ${res.status}: ${res.body}`);
      ids.push(JSON.parse(String(res.body)).id);
    }
    // The target sees /m/<index>: map hits back to ids.
    const idOfIndex = (i) => ids[i];
    await start(1);
    await start(2);
    const balanced = async () => {
      for (let t = 0; t < 120; t++) {
        const map = await owners();
        const counts = [0, 1, 2].map((s) => [...map.values()].filter((o) => o === s).length);
        if (counts.every((c) => c >= MONITORS / 6)) return;
        await sleep(1000);
      }
      throw new Error('the three processes did not share the monitors within 2 minutes');
    };
    await balanced();
    console.log('three processes share the monitors; killing…');
    const used = new Set();
    for (let k = 0; k < KILLS; k++) {
      const slot = k % 3;
      const map = await owners();
      const theirs = ids.filter((id) => map.get(id) === slot && !used.has(id));
      const others = ids.filter((id) => map.get(id) !== slot && !used.has(id));
      if (theirs.length < 2 || others.length < 1) {
        console.log(`  stopping after ${k} kills: no fresh monitors left (raise BENCH_MONITORS)`);
        break;
      }
      const down = [theirs[0], theirs[1], others[0]];
      for (const id of down) used.add(id);
      const indexOf = (id) => ids.indexOf(id);
      for (const id of down) peers.failing.add(indexOf(id));
      // A random moment within a second, so the kill lands anywhere in the checks' cycle.
      await sleep(200 + Math.random() * 1000);
      nodes[slot].child.kill('SIGKILL');
      const killed = Date.now();
      await nodes[slot].child.exited;
      const victimIdx = new Set(theirs.map(indexOf));
      let first = null;
      for (let t = 0; t < 300 && first === null; t++) {
        first = peers.hits.find((h) => h.at > killed && victimIdx.has(h.id))?.at ?? null;
        if (first === null) await sleep(100);
      }
      figures.takeoverMs.push(first === null ? Infinity : first - killed);
      // Let the failing monitors flip and alert, and a duplicate show if there were one.
      await sleep(INTERVAL_MS + 5_000);
      const flips = await q(
        `select monitor_id, count(*)::int as n from $s.status_flips where to_status = 'down' and monitor_id = any($1) group by monitor_id`,
        [down],
      );
      const flipsOf = new Map(flips.rows.map((r) => [Number(r.monitor_id), r.n]));
      const deliveries = await q(
        `select monitor_id, idempotency_key from $s.deliveries where event_kind = 'monitor.down' and monitor_id = any($1)`,
        [down],
      );
      for (const id of down) {
        const n = flipsOf.get(id) ?? 0;
        figures.extraFlips += Math.max(0, n - 1);
        figures.missingFlips += n === 0 ? 1 : 0;
        const keys = deliveries.rows
          .filter((r) => Number(r.monitor_id) === id)
          .map((r) => r.idempotency_key);
        const sent = peers.alerts.filter((a) => keys.includes(a.key)).length;
        figures.extraAlerts += Math.max(0, sent - 1);
        figures.missingAlerts += sent === 0 ? 1 : 0;
      }
      // Rounds due from one interval before the kill to 5 s ago: each must have a check.
      const seen = new Set(
        peers.hits
          .filter((h) => h.at >= killed - INTERVAL_MS)
          .map((h) => `${idOfIndex(h.id)}:${roundAt(idOfIndex(h.id), INTERVAL_MS, h.at)}`),
      );
      for (const id of ids) {
        for (
          let r = roundAt(id, INTERVAL_MS, killed - INTERVAL_MS) + 1;
          dueOf(id, INTERVAL_MS, r) < Date.now() - 5_000;
          r++
        ) {
          figures.rounds += 1;
          if (!seen.has(`${id}:${r}`)) figures.skipped += 1;
        }
      }
      for (const id of down) peers.failing.delete(indexOf(id));
      figures.kills = k + 1;
      console.log(
        `  kill ${k + 1}/${KILLS} (process ${slot}): first takeover check after ${figures.takeoverMs.at(-1)} ms; so far skipped ${figures.skipped}, flips +${figures.extraFlips}/−${figures.missingFlips}, alerts +${figures.extraAlerts}/−${figures.missingAlerts}`,
      );
      await start(slot);
      await balanced();
    }
    // The resend window: from a channel's answer to the commit that records it as sent.
    for (const n of nodes) {
      const res = await request(n.port, '/metrics');
      const samples = parseProm(String(res.body));
      const b = buckets(samples, 'pagewatch_notification_unrecorded_seconds');
      for (const [q, key] of [
        [0.5, 'p50'],
        [0.99, 'p99'],
      ]) {
        const v = histogramQuantile(b, q)?.bound;
        if (v !== undefined) unrecorded[key] = Math.max(unrecorded[key] ?? 0, v * 1000);
      }
      unrecorded.count += metric(samples, 'pagewatch_notification_unrecorded_seconds_count');
    }
  } finally {
    for (const n of nodes) if (n) await stopChild(n.child, 'SIGKILL');
    peers.close();
    await db.end();
    await drop().catch(() => {});
  }
  const t = figures.takeoverMs;
  printTable(`kill -9 of one of three processes, ${figures.kills} times`, [
    ['measure', 'value', 'target'],
    [
      'takeover: kill → first check of the dead one’s monitors, p50',
      `${percentile(t, 50)} ms`,
      '≤ 10 s',
    ],
    ['takeover, max', `${Math.max(...t)} ms`, '≤ 10 s'],
    ['rounds due around the kills', figures.rounds, ''],
    ['rounds skipped', figures.skipped, '0'],
    ['failing monitors', figures.kills * 3, ''],
    ['duplicate flips / missing flips', `${figures.extraFlips} / ${figures.missingFlips}`, '0 / 0'],
    [
      'duplicate alerts / missing alerts',
      `${figures.extraAlerts} / ${figures.missingAlerts}`,
      '0 / 0',
    ],
    [
      `resend window (channel answered → sent recorded), ${unrecorded.count} sends`,
      `p50 ≤ ${unrecorded.p50} ms, p99 ≤ ${unrecorded.p99} ms (bucket bounds)`,
      'report',
    ],
  ]);
  const ok =
    Math.max(...t) <= 10_000 &&
    figures.skipped === 0 &&
    figures.extraFlips + figures.missingFlips + figures.extraAlerts + figures.missingAlerts === 0;
  console.log(`verdict: ${verdict(ok)}`);
  writeResult(
    NAME,
    {
      monitors: MONITORS,
      intervalS: INTERVAL_S,
      ...figures,
      unrecorded,
      takeoverP50Ms: percentile(t, 50),
      takeoverMaxMs: Math.max(...t),
    },
    env,
  );
});
