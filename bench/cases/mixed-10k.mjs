// mixed-10k: 10,000 monitors of every type every 60 s (issue 19: p99 start lateness ≤ 1 s).
// The peers run in processes of their own, so the server's CPU stands alone: the HTTP target
// (bench/lib/target.mjs), bench/lib/mixed-peers.mjs (TCP, TLS, DNS, UDP, ws, gRPC, SMTP, IMAP,
// POP3, RDAP, and the heartbeat jobs pushing to the push and cron monitors), and the machine's
// PostgreSQL, MariaDB, Redis, RabbitMQ and Mosquitto (PAGEWATCH_TEST_*_URL, loopback defaults).
// The mix is bench/lib/mixed-monitors.mjs. Measures start lateness (the server's /metrics),
// due vs completed checks (the metric, and the check_results rows written), what each peer
// received per type, the monitors' statuses at the end, the server's CPU (its helpers and ping
// processes included) and RSS. BENCH_MONITORS, BENCH_DURATION_S and BENCH_SERVER_DIST as in
// the other scheduler benches.
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { setInterval, clearInterval } from 'node:timers';
import { arrivalFigures, nextAtPhase, quietPhase } from '../lib/arrivals.mjs';
import { bodyFor, mixFor } from '../lib/mixed-monitors.mjs';
import {
  ensureSignedIn,
  freePort,
  getJson,
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
  childPids,
  byLabel,
  histogramQuantile,
  mb,
  metric,
  ms,
  parseProm,
  pct,
  printEnvironment,
  printTable,
  rssBytes,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const NAME = 'mixed-10k';
const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const INTERVAL_S = 60;
const DURATION_S = Math.ceil(Number(process.env.BENCH_DURATION_S ?? 180) / INTERVAL_S) * INTERVAL_S;
const WARMUP_S = INTERVAL_S + 15;
const BAR_S = 1;
const LATENESS = 'pagewatch_check_start_lateness_seconds';
const SUMMARY = 'pagewatch_check_start_lateness_recent_seconds';

/** User + system CPU seconds of a process and of its reaped children (the ping processes). */
function cpuWithChildren(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { own: (+f[11] + +f[12]) / 100, children: (+f[13] + +f[14]) / 100 };
}

/**
 * The server's processes: the primary, its scheduler workers (ADR 25) and their helpers that
 * start the ping processes (ADR 72), not the pings themselves.
 */
function serverPids(pid) {
  const node = (p) => {
    try {
      return fs.readFileSync(`/proc/${p}/comm`, 'utf8').trim().startsWith('node');
    } catch {
      return false;
    }
  };
  const found = [pid];
  for (let i = 0; i < found.length; i += 1) found.push(...childPids(found[i]).filter(node));
  return found;
}

/** check_results rows of checks started in [from, to) (epoch ms): what was really recorded. */
function rowsWritten(dataDir, from, to) {
  let db;
  try {
    const Database = createRequire(path.join(root, 'server/package.json'))('better-sqlite3');
    db = new Database(path.join(dataDir, 'pagewatch.db'), { readonly: true });
    db.pragma('busy_timeout = 5000');
    return db
      .prepare('select count(*) as n from check_results where at >= ? and at < ?')
      .get(Math.round(from), Math.round(to)).n;
  } catch (err) {
    console.log(`could not count the rows written: ${err.message}`);
    return null;
  } finally {
    db?.close();
  }
}

/** CPU of the server's processes (the ping processes are the helpers' reaped children). */
function serverCpu(pids) {
  let own = 0;
  let children = 0;
  for (const p of pids) {
    const c = cpuWithChildren(p);
    own += c.own;
    // The primary's reaped children would be workers that exited: none while it runs.
    if (p !== pids[0]) children += c.children;
  }
  return { own, children };
}

async function startPeers() {
  const child = spawnNode([path.join(root, 'bench/lib/mixed-peers.mjs')], { label: 'peers' });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  const next = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('peers did not answer')), 30_000);
      waiting.push((v) => {
        clearTimeout(timer);
        resolve(v);
      });
    });
  const { ports } = await next();
  const send = (command) => child.stdin.write(`${JSON.stringify(command)}\n`);
  return {
    child,
    ports,
    push: (port, tokens) => send({ push: { port, tokens, everyS: INTERVAL_S } }),
    stats: async () => {
      const answer = next();
      send({ stats: true });
      return (await answer).stats;
    },
  };
}

/** Creates the mix, the types interleaved so each is spread over the creation time. */
async function createMix(port, counts, context) {
  const order = [];
  const left = { ...counts };
  const made = Object.fromEntries(Object.keys(counts).map((k) => [k, 0]));
  while (order.length < MONITORS) {
    for (const type of Object.keys(left)) {
      if (left[type]-- > 0) order.push(type);
    }
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const tokens = [];
  const t0 = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < order.length) {
      const type = order[next++];
      const body = bodyFor(type, made[type]++, context);
      const res = await request(port, '/api/v1/monitors', { method: 'POST', body, agent });
      if (res.status !== 201) throw new Error(`create ${type} → ${res.status}: ${res.body}`);
      const token = JSON.parse(String(res.body)).pushToken;
      if (token) tokens.push(token);
      if (next % 2000 === 0) console.log(`  ${next} created in ${(Date.now() - t0) / 1000} s`);
    }
  };
  try {
    await Promise.all(Array.from({ length: 4 }, worker));
  } finally {
    agent.destroy();
  }
  return { ms: Date.now() - t0, tokens };
}

async function scrape(port) {
  const before = Date.now();
  const res = await request(port, '/metrics');
  return { at: (before + Date.now()) / 2, samples: parseProm(String(res.body)) };
}

/** Each monitor's status at the end, counted per type (cron push monitors count as push). */
async function statusesByType(port) {
  const list = await getJson(port, '/api/v1/monitors?limit=100000');
  const rows = Array.isArray(list) ? list : (list.items ?? list.monitors ?? []);
  const out = {};
  for (const m of rows) {
    out[m.type] ??= {};
    out[m.type][m.status] = (out[m.type][m.status] ?? 0) + 1;
  }
  return out;
}

const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
const checks = (s) => byLabel(s.samples, 'pagewatch_checks_total', 'outcome');

await runBench(NAME, async () => {
  const counts = mixFor(MONITORS);
  console.log(`${NAME}: ${MONITORS} monitors every ${INTERVAL_S} s, ${DURATION_S} s measured`);
  console.log(`mix: ${JSON.stringify(counts)}`);
  const env = printEnvironment();
  const target = await startTarget();
  const peers = await startPeers();
  const dataDir = tempDir('mixed');
  // Domain expiry asks the loopback registry: a refreshed bootstrap naming it for .test.
  fs.writeFileSync(
    path.join(dataDir, 'rdap-dns.json'),
    JSON.stringify({ services: [[['test'], [`http://127.0.0.1:${peers.ports.rdap}/`]]] }),
  );
  const port = await freePort();
  const server = spawnServer({ dataDir, port });
  await waitHealthy(port, server);
  await ensureSignedIn(port);
  const created = await createMix(port, counts, {
    interval: INTERVAL_S,
    target,
    ports: peers.ports,
  });
  console.log(`created in ${(created.ms / 1000).toFixed(1)} s; ${created.tokens.length} pushed`);
  peers.push(port, created.tokens);
  await sleep(WARMUP_S * 1000);
  const quiet = quietPhase((await getJson(target.port, '/__stats')).arrivals, INTERVAL_S * 1000);
  await sleep(nextAtPhase(quiet.phaseMs, INTERVAL_S * 1000, Date.now() + 500) - Date.now());

  const pid = server.pid;
  const pids = serverPids(pid);
  console.log(`server processes: ${pids.join(', ')} (primary first)`);
  const cpu0 = serverCpu(pids);
  const peerCpu0 = cpuWithChildren(peers.child.pid);
  const peers0 = await peers.stats();
  const first = await scrape(port);
  const rss = [];
  const rssTimer = setInterval(
    () => rss.push(pids.reduce((a, p) => a + (rssBytes(p) ?? 0), 0)),
    1000,
  );
  const loop = [];
  const loopTimer = setInterval(() => {
    void scrape(port).then((s) => {
      loop.push(metric(s.samples, 'nodejs_eventloop_lag_p99_seconds'));
      const inFlight = metric(s.samples, 'pagewatch_checks_in_flight');
      console.log(`  in flight ${inFlight}, loop p99 ${ms(loop.at(-1) * 1000)}`);
    });
  }, 15_000);
  await sleep(first.at + DURATION_S * 1000 - Date.now());
  clearInterval(rssTimer);
  clearInterval(loopTimer);
  const end = await scrape(port);
  const cpu1 = serverCpu(pids);
  const peerCpu1 = cpuWithChildren(peers.child.pid);
  const peers1 = await peers.stats();
  const { arrivals } = await getJson(target.port, '/__stats');
  const statuses = await statusesByType(port);
  // The results of checks started before the end are in the database by now (a few seconds).
  const recorded = rowsWritten(dataDir, first.at, end.at);

  const wallS = (end.at - first.at) / 1000;
  const rounds = wallS / INTERVAL_S;
  const due = MONITORS * rounds;
  const pushTypes = counts.push + counts.cron;
  const dueChecked = (MONITORS - pushTypes) * rounds; // push monitors are not "checked"
  const completed = sum(checks(end)) - sum(checks(first));
  const outcomes = Object.fromEntries(
    Object.entries(checks(end)).map(([k, v]) => [k, v - (checks(first)[k] ?? 0)]),
  );
  const failures = Object.fromEntries(
    Object.entries(byLabel(end.samples, 'pagewatch_check_failures_total', 'code'))
      .map(([k, v]) => [
        k,
        v - (byLabel(first.samples, 'pagewatch_check_failures_total', 'code')[k] ?? 0),
      ])
      .filter(([, v]) => v > 0),
  );
  const started =
    metric(end.samples, `${LATENESS}_count`) - metric(first.samples, `${LATENESS}_count`);
  const window = buckets(end.samples, LATENESS, first.samples);
  const hq = (q) => histogramQuantile(window, q);
  const sq = (q) => metric(end.samples, SUMMARY, { quantile: q });
  const seen = arrivalFigures(arrivals, first.at, end.at, INTERVAL_S * 1000);
  const cpuS = cpu1.own - cpu0.own + (cpu1.children - cpu0.children);
  const rssStats = summarize(rss.filter((v) => v !== null));

  const atPeer = (key, type = key) => {
    const got = peers1[key] - peers0[key];
    return [
      type,
      counts[type],
      (counts[type] * rounds).toFixed(0),
      got,
      pct((100 * got) / (counts[type] * rounds)),
    ];
  };
  printTable(`checks received by the peers over ${wallS.toFixed(1)} s`, [
    ['type', 'monitors', 'due', 'received', 'of due'],
    [
      'http',
      counts.http,
      (counts.http * rounds).toFixed(0),
      seen.received,
      pct((100 * seen.received) / (counts.http * rounds)),
    ],
    ...['tcp', 'tls', 'dns', 'udp', 'websocket', 'grpc', 'smtp', 'imap', 'pop3'].map((t) =>
      atPeer(t),
    ),
    [
      'push + cron (pings sent by the jobs)',
      pushTypes,
      (pushTypes * rounds).toFixed(0),
      peers1.pushSent - peers0.pushSent,
      `${peers1.pushFailed - peers0.pushFailed} refused`,
    ],
  ]);
  printTable('due vs run (the server)', [
    ['count', 'checks', 'of due'],
    ['due, every type but push (monitors × window / interval)', dueChecked.toFixed(0), '100 %'],
    [
      'due, every monitor (push monitors record a result per interval too)',
      due.toFixed(0),
      '100 %',
    ],
    ['completed (Δ pagewatch_checks_total, every type)', completed, pct((100 * completed) / due)],
    [
      'recorded (check_results rows of checks started in the window)',
      recorded,
      pct((100 * recorded) / due),
    ],
    [
      'started, of the non-push due (Δ lateness histogram _count)',
      started,
      pct((100 * started) / dueChecked),
    ],
  ]);
  printTable('start lateness (due → check started), every type', [
    ['source', 'p50', 'p90', 'p99', 'p99.9'],
    ['summary, last 10 min', ...['0.5', '0.9', '0.99', '0.999'].map((q) => ms(sq(q) * 1000))],
    ['histogram Δ over the window', ...[0.5, 0.9, 0.99, 0.999].map((q) => ms(hq(q)?.value * 1000))],
    [
      'HTTP target: arrival vs the monitor’s most punctual',
      ms(seen.jitter.p50, 0),
      '–',
      ms(seen.jitter.p99, 0),
      '–',
    ],
  ]);
  printTable('server resources over the window', [
    ['measure', 'value'],
    [
      `CPU, % of one core (${pids.length} server processes + their ping processes)`,
      pct((100 * cpuS) / wallS, 1),
    ],
    ['  of it the ping processes', pct((100 * (cpu1.children - cpu0.children)) / wallS, 1)],
    ['CPU per completed check (server + ping)', `${((1000 * cpuS) / completed).toFixed(2)} ms`],
    [
      'peers process CPU (not counted above)',
      pct((100 * (peerCpu1.own - peerCpu0.own)) / wallS, 1),
    ],
    [
      "RSS mean / peak (the server's processes summed)",
      `${mb(rssStats.mean)} / ${mb(rssStats.max)}`,
    ],
    [
      'event loop p99 per 15 s: median / worst',
      `${ms(summarize(loop).p50 * 1000)} / ${ms(summarize(loop).max * 1000)}`,
    ],
  ]);
  console.log(`\noutcomes in the window: ${JSON.stringify(outcomes)}`);
  console.log(`failures by code in the window: ${JSON.stringify(failures)}`);
  // Results the server ran but did not count: overload, stalls, a full write queue, rounds
  // already recorded (a worker that lost its leases and one that took them over).
  const lost = {
    discarded: Object.fromEntries(
      Object.entries(byLabel(end.samples, 'pagewatch_checks_discarded_total', 'reason')).map(
        ([k, v]) => [
          k,
          v - (byLabel(first.samples, 'pagewatch_checks_discarded_total', 'reason')[k] ?? 0),
        ],
      ),
    ),
    writesDropped:
      metric(end.samples, 'pagewatch_result_writes_dropped_total') -
      metric(first.samples, 'pagewatch_result_writes_dropped_total'),
    duplicates:
      metric(end.samples, 'pagewatch_results_duplicate_dropped_total') -
      metric(first.samples, 'pagewatch_results_duplicate_dropped_total'),
    fenced: server.logLines.filter((l) => l.includes('fenced')).length,
  };
  console.log(`not counted: ${JSON.stringify(lost)}`);
  console.log(`statuses at the end, by type: ${JSON.stringify(statuses)}`);
  // The lower of the metric and the rows written: either alone could flatter.
  const runPct = (100 * Math.min(completed, recorded ?? completed)) / due;
  const p99 = Math.max(sq('0.99'), hq(0.99)?.value ?? 0);
  const met = { run: runPct >= 99.9, lateness: p99 <= BAR_S };
  console.log(`target: ≥ 99.9 % of due checks run: ${verdict(met.run)} (${pct(runPct)})`);
  console.log(`target: p99 start lateness ≤ 1 s: ${verdict(met.lateness)} (${ms(p99 * 1000)})`);
  const complaints = serverComplaints(server);
  await stopChild(server, 'SIGTERM', 20_000);
  if (complaints.length > 0) {
    console.log(`\nserver logged ${complaints.length} warning(s) or worse, e.g.:`);
    for (const line of complaints.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  writeResult(
    NAME,
    {
      settings: { MONITORS, INTERVAL_S, DURATION_S, WARMUP_S },
      counts,
      createMs: created.ms,
      windowS: wallS,
      dueChecked,
      due,
      completed,
      recorded,
      started,
      outcomes,
      failures,
      lost,
      statuses,
      peers: Object.fromEntries(Object.keys(peers1).map((k) => [k, peers1[k] - peers0[k]])),
      http: seen,
      latenessSummarySeconds: Object.fromEntries(
        ['0.5', '0.9', '0.99', '0.999'].map((q) => [q, sq(q)]),
      ),
      latenessWindowSeconds: Object.fromEntries([0.5, 0.9, 0.99, 0.999].map((q) => [q, hq(q)])),
      cpuPercentOfOneCore: (100 * cpuS) / wallS,
      pingCpuPercent: (100 * (cpu1.children - cpu0.children)) / wallS,
      rssBytes: rssStats,
      met,
      complaints: complaints.slice(0, 50),
    },
    env,
  );
});
