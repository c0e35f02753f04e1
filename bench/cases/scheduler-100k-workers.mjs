// scheduler-100k-workers: 100,000 HTTP monitors every 60 s on this machine with
// PAGEWATCH_WORKERS=2 (the primary and a scheduler-only worker process it forks, sharing the
// monitors by partition leases), on SQLite and then on PostgreSQL, each on a fresh database.
// Targets (the multi-process scheduler issue): p99 start lateness ≤ 1 s and ≥ 99.9 % of due checks
// run; reported: CPU ms per check, CPU and RSS of each server process, database growth.
//
// The workers don't serve HTTP, so their counters are not on the primary's /metrics: everything
// is measured at the target (a compact bench/lib/target.mjs, one path /m/<i> per monitor) and in
// /proc. Round r of monitor `id` is due at phaseOf(id, I) + r × I (bench/lib/schedule.mjs), so an
// arrival's lateness is `arrival − due of its round` (connect time included, a few ms), and a
// window counts exactly the rounds due in it.
//
// BENCH_MONITORS (100000), BENCH_INTERVAL_S (60), BENCH_DURATION_S (300, rounded up to whole
// intervals), BENCH_WORKERS (2), BENCH_ENGINE (sqlite | postgres | both, the default),
// BENCH_WARMUP_S (the interval + 10 s);
// PostgreSQL is BENCH_POSTGRES_URL or the local test database, in a schema of its own that is
// dropped afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setInterval, clearInterval } from 'node:timers';
import pg from 'pg';
import { benchSchema, pgReachable, postgresUrl, schemaBytes } from '../lib/postgres.mjs';
import {
  createMonitors,
  freePort,
  getJson,
  now,
  onCleanup,
  preflight,
  readArrivals,
  request,
  runBench,
  serverComplaints,
  shareSignIn,
  sleep,
  spawnServer,
  startTarget,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import { dueOf, roundAt } from '../lib/schedule.mjs';
import {
  childPids,
  cpuSeconds,
  envOf,
  mb,
  ms,
  pct,
  percentiles,
  printEnvironment,
  printTable,
  rssBytes,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const NAME = 'scheduler-100k-workers';
const MONITORS = Number(process.env.BENCH_MONITORS ?? 100_000);
const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S ?? 60);
const INTERVAL_MS = INTERVAL_S * 1000;
const DURATION_S = Math.ceil(Number(process.env.BENCH_DURATION_S ?? 300) / INTERVAL_S) * INTERVAL_S;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const ENGINE = process.env.BENCH_ENGINE ?? 'both';
const ENGINES = ENGINE === 'both' ? ['sqlite', 'postgres'] : [ENGINE];
// Monitors created in bulk have one extra check within their first interval: measure after it.
// BENCH_WARMUP_S waits longer, for the start's catch-up of every monitor's current round to end.
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? INTERVAL_S + 10);
const TIMEOUT_S = 5;
// After the window, for the checks of the rounds due at its end (a timeout is 5 s).
const GRACE_MS = 10_000;
const LATENESS_BAR_MS = 1000;
const RUN_BAR_PERCENT = 99.9;
const QUANTILES = [50, 90, 99, 99.9];
const PARTITIONS = 1024;

/** The primary and its children (the scheduler workers), named by PAGEWATCH_WORKER_INDEX. */
function serverProcesses(primary) {
  return [
    { pid: primary, role: 'primary' },
    ...childPids(primary).map((pid) => ({
      pid,
      role: `worker ${envOf(pid, 'PAGEWATCH_WORKER_INDEX') ?? '?'}`,
    })),
  ];
}

/**
 * The lease renewal histogram on the primary's /metrics (its workers' added in, ADR 25): count,
 * sum and cumulative buckets, so a window's renewals are the difference of two scrapes.
 */
async function leaseRenewals(port) {
  const res = await request(port, '/metrics');
  const name = 'pagewatch_cluster_lease_renewal_seconds';
  const out = { count: 0, sum: 0, buckets: new Map() };
  for (const line of String(res.body).split('\n')) {
    if (!line.startsWith(name)) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith(`${name}_count`)) out.count = value;
    else if (line.startsWith(`${name}_sum`)) out.sum = value;
    else {
      const le = /le="([^"]+)"/.exec(line)?.[1];
      if (le) out.buckets.set(le, value);
    }
  }
  return out;
}

/** Renewals in the window: per second per member, mean, and the bucket bound holding p99. */
function leaseWindow(a, b, windowS, members) {
  const count = b.count - a.count;
  if (count <= 0) return null;
  let p99 = null;
  for (const [le, n] of b.buckets) {
    if ((n - (a.buckets.get(le) ?? 0)) / count >= 0.99) {
      p99 = le === '+Inf' ? Infinity : 1000 * Number(le);
      break;
    }
  }
  return {
    count,
    perSecondPerMember: count / windowS / members,
    meanMs: (1000 * (b.sum - a.sum)) / count,
    p99AtMostMs: p99,
  };
}

/** Partitions held by each scheduler process (members are named hostname:pid), from the primary. */
async function shares(port, primary) {
  const overview = await getJson(port, '/api/v1/cluster');
  const roleOf = new Map(serverProcesses(primary).map((p) => [p.pid, p.role]));
  const members = overview.members
    .filter((m) => m.roles.includes('scheduler'))
    .map((m) => {
      const pid = Number(m.name.split(':').pop());
      return {
        role: roleOf.get(pid) ?? m.name,
        pid,
        partitions: m.partitions,
        capacity: m.capacity,
        monitors: m.load?.monitors ?? null,
        checksPerMinute: m.load?.checksPerMinute ?? null,
      };
    })
    .sort((a, b) => a.role.localeCompare(b.role));
  return { unowned: overview.partitions.unowned, members };
}

/** shares(), or null (and a note) when the primary does not answer in time: a probe, not a failure. */
async function sharesIfAnswered(port, primary) {
  try {
    return await shares(port, primary);
  } catch (err) {
    console.log(`  (GET /api/v1/cluster: ${err.message})`);
    return null;
  }
}

const describeShares = (s) =>
  s === null
    ? 'unknown'
    : [...s.members.map((m) => `${m.role} ${m.partitions}`), `${s.unowned} unowned`].join(', ');

/**
 * Waits until every scheduler process has joined, no partition is unowned, each holds its share
 * (1,024 / processes, within twice the server's slack of 4) and the shares have not moved for
 * three reads 5 s apart: the hand-over of partitions from the primary (which starts alone) to
 * its workers is over. Gives up after `limitMs`.
 */
async function waitSettled(port, primary, limitMs) {
  const t0 = now();
  let last = '';
  let same = 0;
  for (;;) {
    const s = await sharesIfAnswered(port, primary);
    const key = describeShares(s);
    // Each at its capacity-weighted share (on SQLite a worker weighs twice the primary, ADR 25).
    const weights = s?.members.reduce((sum, m) => sum + m.capacity, 0) ?? 1;
    const even = s?.members.every(
      (m) => Math.abs(m.partitions - (PARTITIONS * m.capacity) / weights) <= 8,
    );
    const whole = s?.unowned === 0 && s.members.length === WORKERS && even;
    same = whole && key === last ? same + 1 : 0;
    if (key !== last) console.log(`  ${((now() - t0) / 1000).toFixed(0)} s: partitions ${key}`);
    last = key;
    if (same >= 2 || now() - t0 > limitMs) return { ms: now() - t0, settled: same >= 2, shares: s };
    await sleep(5000);
  }
}

/**
 * Samples the CPU time and RSS of a changing set of processes every second. `start()` and
 * `stop()` bound the window: stop() resolves with each process seen in it, its CPU seconds in the
 * window (from its birth if it started in it) and its RSS samples. `seen` holds every process.
 */
function sampler(list) {
  const seen = new Map();
  let inWindow = false;
  let busy = null;
  const sampleOnce = async () => {
    let found = [];
    try {
      found = await list();
    } catch (err) {
      console.warn(`  (process list failed: ${err.message})`);
    }
    for (const { pid, role } of found) {
      let p = seen.get(pid);
      if (!p) {
        p = {
          pid,
          role,
          firstSeen: Date.now(),
          cpu: null,
          cpuAtStart: inWindow ? 0 : null,
          rss: [],
        };
        seen.set(pid, p);
      }
      try {
        p.cpu = cpuSeconds(pid);
        const rss = rssBytes(pid);
        if (inWindow) p.rss.push(rss);
        p.lastSeen = Date.now();
      } catch {
        // exited since the list was made
      }
    }
  };
  const tick = () => {
    busy ??= sampleOnce().finally(() => (busy = null));
    return busy;
  };
  const timer = setInterval(() => void tick(), 1000);
  return {
    seen,
    async start() {
      await busy;
      await tick();
      for (const p of seen.values()) p.cpuAtStart = p.cpu;
      inWindow = true;
    },
    async stop() {
      await busy;
      await tick();
      inWindow = false;
      clearInterval(timer);
      return [...seen.values()]
        .filter((p) => p.cpuAtStart !== null && p.cpu !== null)
        .map((p) => ({
          pid: p.pid,
          role: p.role,
          cpuSeconds: p.cpu - p.cpuAtStart,
          rss: summarize(p.rss.filter((v) => v !== null)),
        }));
    },
    halt: () => clearInterval(timer),
  };
}

/**
 * Counts the server's log lines at warn level or worse (and lines that are not JSON) by message,
 * over its whole life: the child itself keeps only its last 2,000 lines. Workers log through the
 * primary's output.
 */
function tallyComplaints(child) {
  const counts = new Map();
  // Every complaint in full, for reading after the run (the table keeps only counts).
  const dir = path.resolve(import.meta.dirname, '../results');
  const file = path.join(dir, `${NAME}-complaints.log`);
  fs.mkdirSync(dir, { recursive: true });
  const out = fs.createWriteStream(file, { flags: 'a' });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        const level = /"level":(\d+)/.exec(line);
        if (!line.trim() || (level && Number(level[1]) < 40)) continue;
        out.write(`${line}\n`);
        const msg = /"msg":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? line.slice(0, 120);
        counts.set(msg, (counts.get(msg) ?? 0) + 1);
      }
    });
  }
  return counts;
}

/** SQLite's main file and write-ahead log, in bytes. */
function sqliteBytes(dataDir) {
  const size = (f) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  const file = path.join(dataDir, 'pagewatch.db');
  const db = size(file);
  const wal = size(`${file}-wal`);
  return { total: db + wal, db, wal };
}

/** The PostgreSQL backends serving the server (its connections carry application_name). */
async function postgresBackends(appName) {
  const client = new pg.Client({
    connectionString: postgresUrl,
    application_name: 'bench-sampler',
  });
  await client.connect();
  const list = async () =>
    (
      await client.query('select pid from pg_stat_activity where application_name = $1', [appName])
    ).rows.map((r) => ({ pid: r.pid, role: 'postgres backend' }));
  return { list, close: () => client.end() };
}

/** Signals the primary (it stops its workers), then kills any server process still running. */
async function stopServer(child, procs) {
  const stopped = await stopChild(child, 'SIGTERM', 40_000);
  const leftovers = [];
  for (const p of procs?.seen.values() ?? []) {
    if (p.pid === child.pid || !fs.existsSync(`/proc/${p.pid}`)) continue;
    const cmd = fs.readFileSync(`/proc/${p.pid}/cmdline`, 'utf8');
    if (!cmd.includes('main.js')) continue; // a pid used again by something else
    leftovers.push(p.pid);
    process.kill(p.pid, 'SIGKILL');
  }
  return { ...stopped, leftovers };
}

/**
 * Everything the target saw, against the round grid: rounds due in [from, to) and those that
 * reached the target (a second arrival of a round is a duplicate), each arrival's lateness,
 * monitors short of their rounds or with a gap over 1.5 intervals between arrivals (from one
 * interval before the window to its end), arrivals per second in the window.
 */
function analyse(ids, { keys, times }, from, to) {
  const n = ids.length;
  const expected = new Int32Array(n);
  let due = 0;
  for (let k = 0; k < n; k += 1) {
    expected[k] = roundAt(ids[k], INTERVAL_MS, to - 1) - roundAt(ids[k], INTERVAL_MS, from - 1);
    due += expected[k];
  }
  const got = new Int32Array(n);
  const lastRound = new Float64Array(n).fill(-Infinity);
  const lastAt = new Float64Array(n).fill(from - INTERVAL_MS);
  const gap = new Uint8Array(n);
  const lateness = new Float64Array(keys.length);
  const perSecond = new Int32Array(Math.ceil((to - from) / 1000));
  let received = 0;
  let duplicates = 0;
  let unknown = 0;
  let outside = 0;
  for (let j = 0; j < keys.length; j += 1) {
    const k = keys[j];
    const at = times[j];
    if (!(k >= 0 && k < n)) {
      unknown += 1;
      continue;
    }
    if (at >= from && at < to) perSecond[Math.floor((at - from) / 1000)] += 1;
    if (at >= from - INTERVAL_MS && at < to + GRACE_MS) {
      if (at - lastAt[k] > 1.5 * INTERVAL_MS) gap[k] = 1;
      lastAt[k] = at;
    }
    const round = roundAt(ids[k], INTERVAL_MS, at);
    const dueAt = dueOf(ids[k], INTERVAL_MS, round);
    if (dueAt < from || dueAt >= to) {
      outside += 1;
      continue;
    }
    if (round === lastRound[k]) {
      duplicates += 1;
      continue;
    }
    lastRound[k] = round;
    got[k] += 1;
    lateness[received] = at - dueAt;
    received += 1;
  }
  let short = 0;
  let withGap = 0;
  for (let k = 0; k < n; k += 1) {
    if (got[k] < expected[k]) short += 1;
    if (gap[k] || to - lastAt[k] > 1.5 * INTERVAL_MS) withGap += 1;
  }
  const late = lateness.subarray(0, received);
  const q = percentiles(late, QUANTILES);
  return {
    due,
    received,
    runPercent: due > 0 ? (100 * received) / due : null,
    duplicates,
    monitorsShort: short,
    monitorsWithGap: withGap,
    arrivalsOutsideWindow: outside,
    unknownPaths: unknown,
    latenessMs: {
      ...Object.fromEntries(QUANTILES.map((p) => [`p${p}`, q[p]])),
      max: late.reduce((a, b) => Math.max(a, b), -Infinity),
      overBar: late.reduce((a, b) => a + (b > LATENESS_BAR_MS ? 1 : 0), 0),
    },
    perSecond: {
      peak: perSecond.reduce((a, b) => Math.max(a, b), 0),
      mean: perSecond.reduce((a, b) => a + b, 0) / perSecond.length,
      min: perSecond.reduce((a, b) => Math.min(a, b), Infinity),
    },
  };
}

const loadavg = () => os.loadavg().map((l) => Math.round(l * 100) / 100);
const totalCpu = (procs) => procs.reduce((a, p) => a + p.cpuSeconds, 0);

async function runEngine(engine) {
  console.log(
    `\n── ${engine}: ${MONITORS} monitors every ${INTERVAL_S} s (timeout ${TIMEOUT_S} s), PAGEWATCH_WORKERS=${WORKERS}, ${WARMUP_S} s warm-up, ${DURATION_S} s measured`,
  );
  const dataDir = tempDir(`100k-${engine}`);
  const env = { PAGEWATCH_WORKERS: String(WORKERS) };
  let dbBytes = async () => sqliteBytes(dataDir);
  let backends = null;
  if (engine === 'postgres') {
    const { schema, drop } = await benchSchema();
    onCleanup(drop);
    // The server's connections carry the schema's name, so its backends can be told apart.
    const url = new URL(postgresUrl);
    url.searchParams.set('application_name', schema);
    Object.assign(env, { PAGEWATCH_DATABASE_URL: String(url), PAGEWATCH_DATABASE_SCHEMA: schema });
    dbBytes = async () => ({ total: await schemaBytes(schema) });
    backends = await postgresBackends(schema);
    onCleanup(backends.close);
    console.log(`PostgreSQL schema ${schema} at ${url.host}${url.pathname}`);
  }
  const target = await startTarget({ compact: true });
  onCleanup(() => stopChild(target.child));
  // Seeded through the API of a web-only server (no checks compete with the inserts: 2-4 times
  // faster), then started again with its workers on the same database, as after an upgrade.
  const seedPort = await freePort();
  const seeder = spawnServer({
    dataDir,
    port: seedPort,
    env: { ...env, PAGEWATCH_ROLES: 'web', PAGEWATCH_WORKERS: '1' },
  });
  onCleanup(() => stopChild(seeder, 'SIGTERM', 30_000));
  await waitHealthy(seedPort, seeder, { timeoutMs: 60_000 });
  const created = await createMonitors(seedPort, MONITORS, (i) => target.url(`/m/${i}`), {
    interval: INTERVAL_S,
    timeout: TIMEOUT_S,
    parallel: 8,
    progressEvery: 10_000,
  }).catch((err) => {
    // The answer says only "500": the seeding server's log says why.
    console.error(serverComplaints(seeder).slice(-10).join('\n'));
    throw err;
  });
  const post = summarize(created.latencies);
  console.log(
    `created ${MONITORS} monitors in ${(created.ms / 1000).toFixed(1)} s (${((1000 * MONITORS) / created.ms).toFixed(0)}/s, POST p50 ${ms(post.p50)} p99 ${ms(post.p99)}); starting with ${WORKERS} processes…`,
  );
  await stopChild(seeder, 'SIGTERM', 30_000);

  const port = await freePort();
  shareSignIn(seedPort, port);
  const spawnedAt = now();
  const child = spawnServer({ dataDir, port, env });
  const tally = tallyComplaints(child);
  const procs = sampler(async () => serverProcesses(child.pid));
  const pgProcs = backends ? sampler(backends.list) : null;
  onCleanup(async () => {
    procs.halt();
    pgProcs?.halt();
    await stopServer(child, procs);
  });
  const healthyMs = (await waitHealthy(port, child, { timeoutMs: 120_000 })) - spawnedAt;
  console.log(`healthy ${ms(healthyMs, 0)} after the start; waiting for the partitions to settle…`);
  const settle = await waitSettled(port, child.pid, 10 * 60_000);
  console.log(
    `partitions ${settle.settled ? 'settled' : 'STILL MOVING'} after ${(settle.ms / 1000).toFixed(0)} s; warming up ${WARMUP_S} s…`,
  );
  await sleep(WARMUP_S * 1000);

  const load0 = loadavg();
  const db0 = await dbBytes();
  const target0 = cpuSeconds(target.child.pid);
  const shares0 = await sharesIfAnswered(port, child.pid);
  const lease0 = await leaseRenewals(port);
  await Promise.all([procs.start(), pgProcs?.start()]);
  const from = Date.now();
  const tallyAtStart = new Map(tally);
  const to = from + DURATION_S * 1000;
  let prev = { at: from, total: (await getJson(target.port, '/__stats')).total };
  while (Date.now() < to) {
    await sleep(Math.min(30_000, to - Date.now()));
    const at = Date.now();
    const { total } = await getJson(target.port, '/__stats');
    const rss = [...procs.seen.values()]
      .filter((p) => p.rss.length > 0 && p.lastSeen > at - 5000)
      .map((p) => `${p.role} ${mb(p.rss.at(-1))}`);
    const now1 = describeShares(await sharesIfAnswered(port, child.pid));
    console.log(
      `  t+${Math.round((at - from) / 1000)} s: ${((1000 * (total - prev.total)) / (at - prev.at)).toFixed(0)} arrivals/s, load ${loadavg()[0]}, RSS ${rss.join(', ')}; partitions ${now1}`,
    );
    prev = { at, total };
  }
  const [server, pgServer] = await Promise.all([procs.stop(), pgProcs?.stop()]);
  const logged = [...tally]
    .map(([msg, n]) => ({ msg, total: n, inWindow: n - (tallyAtStart.get(msg) ?? 0) }))
    .sort((a, b) => b.total - a.total);
  const shares1 = await sharesIfAnswered(port, child.pid);
  const lease = leaseWindow(
    lease0,
    await leaseRenewals(port),
    DURATION_S,
    serverProcesses(child.pid).length,
  );
  const target1 = cpuSeconds(target.child.pid);
  const db1 = await dbBytes();
  const load1 = loadavg();
  await sleep(GRACE_MS);
  const arrivals = await readArrivals(target);
  const seen = analyse(created.ids, arrivals, from, to);
  const windowS = (to - from) / 1000;

  const complaints = serverComplaints(child);
  const workerExits = logged.find((c) => c.msg.startsWith('a scheduler worker exited'))?.total ?? 0;
  const stopped = await stopServer(child, procs);
  await stopChild(target.child);
  await backends?.close();
  const workerPids = [...procs.seen.values()].filter((p) => p.role !== 'primary');

  const serverCpuS = totalCpu(server);
  const cpuMsPerCheck = (1000 * serverCpuS) / seen.received;
  const pgCpuS = pgServer ? totalCpu(pgServer) : null;
  const pctOfCore = (s) => pct((100 * s) / windowS, 1);
  const of = (n) => pct((100 * n) / seen.due);

  printTable(`${engine}: due vs run over ${windowS.toFixed(0)} s (rounds due in the window)`, [
    ['count', 'checks', 'of due'],
    ['due (rounds of every monitor due in the window)', seen.due, '100 %'],
    ['received by the target', seen.received, of(seen.received)],
    ['  duplicates (a round’s second arrival, not counted)', seen.duplicates, ''],
    ['  monitors short of their due rounds', seen.monitorsShort, ''],
    ['  monitors with a gap > 1.5 intervals', seen.monitorsWithGap, ''],
    [
      'arrivals per second: mean / min / peak',
      `${seen.perSecond.mean.toFixed(0)} / ${seen.perSecond.min} / ${seen.perSecond.peak}`,
      '',
    ],
  ]);
  const l = seen.latenessMs;
  printTable(`${engine}: start lateness at the target (arrival − its round's due time)`, [
    ['p50', 'p90', 'p99', 'p99.9', 'max', `> ${LATENESS_BAR_MS} ms`],
    [
      ms(l.p50, 0),
      ms(l.p90, 0),
      ms(l.p99, 0),
      ms(l['p99.9'], 0),
      ms(l.max, 0),
      `${l.overBar} (${of(l.overBar)})`,
    ],
  ]);
  printTable(`${engine}: server processes over the window (/proc every 1 s)`, [
    ['process', 'pid', 'CPU, % of a core', 'RSS mean', 'RSS peak'],
    ...server.map((p) => [p.role, p.pid, pctOfCore(p.cpuSeconds), mb(p.rss.mean), mb(p.rss.max)]),
    ['all server processes', '', pctOfCore(serverCpuS), '', ''],
    ...(pgServer
      ? [
          [
            `PostgreSQL backends (${pgServer.length}, not counted above)`,
            '',
            pctOfCore(pgCpuS),
            '',
            '',
          ],
        ]
      : []),
    ['target process (not counted)', target.child.pid, pctOfCore(target1 - target0), '', ''],
  ]);
  printTable(`${engine}: partitions per scheduler process (Settings → Cluster)`, [
    ['process', 'partitions at start', 'at end', 'monitors', 'checks/min (last minute)'],
    ...(shares1?.members ?? []).map((m) => [
      m.role,
      shares0?.members.find((x) => x.pid === m.pid)?.partitions ?? '–',
      m.partitions,
      m.monitors,
      m.checksPerMinute,
    ]),
    ['unowned', shares0?.unowned, shares1?.unowned, '', ''],
  ]);
  printTable(`${engine}: cost and growth`, [
    ['measure', 'value'],
    ['server CPU per check received', `${cpuMsPerCheck.toFixed(3)} ms`],
    ...(pgServer
      ? [
          [
            '  with the PostgreSQL backends',
            `${((1000 * (serverCpuS + pgCpuS)) / seen.received).toFixed(3)} ms`,
          ],
        ]
      : []),
    [
      `database ${engine === 'sqlite' ? '(pagewatch.db + -wal)' : '(pg_total_relation_size, schema)'}`,
      `${mb(db0.total)} → ${mb(db1.total)} (+${mb(db1.total - db0.total)})`,
    ],
    ...(engine === 'sqlite'
      ? [['  main file / -wal at the end', `${mb(db1.db)} / ${mb(db1.wal)}`]]
      : []),
    ['  growth per check received', `${((db1.total - db0.total) / seen.received).toFixed(0)} B`],
    [`start → /healthz 200 with ${MONITORS} monitors`, ms(healthyMs, 0)],
    [
      'start → partitions settled',
      `${(settle.ms / 1000).toFixed(0)} s${settle.settled ? '' : ' (not settled)'}`,
    ],
    [
      'seeding',
      `${(created.ms / 1000).toFixed(1)} s, ${((1000 * MONITORS) / created.ms).toFixed(0)} monitors/s`,
    ],
    ['load average (1 min) at start → end of window', `${load0[0]} → ${load1[0]}`],
    [
      'lease renewals (heartbeat, members, renew) per member',
      lease
        ? `${lease.perSecondPerMember.toFixed(2)}/s, mean ${lease.meanMs.toFixed(1)} ms, p99 ≤ ${lease.p99AtMostMs === Infinity ? '> 5 s' : `${lease.p99AtMostMs} ms`}`
        : 'none in the window',
    ],
    ['worker processes seen / restarts logged', `${workerPids.length} / ${workerExits}`],
    [
      'SIGTERM → exit',
      `${ms(stopped.ms, 0)} (code ${stopped.code}), ${stopped.leftovers.length} left running`,
    ],
  ]);
  if (logged.length > 0) {
    printTable(`${engine}: server log lines at warn or worse, by message (all processes)`, [
      ['message', 'since the start', 'in the window'],
      ...logged.slice(0, 12).map((c) => [c.msg.slice(0, 90), c.total, c.inWindow]),
    ]);
    console.log('the last of them:');
    for (const line of complaints.slice(-3)) console.log(`  ${line.slice(0, 300)}`);
  }
  const met = {
    lateness: l.p99 !== null && l.p99 <= LATENESS_BAR_MS,
    run: seen.runPercent >= RUN_BAR_PERCENT,
  };
  console.log(
    `${engine}: p99 start lateness ≤ ${LATENESS_BAR_MS} ms: ${verdict(met.lateness)} (${ms(l.p99, 0)}); ≥ ${RUN_BAR_PERCENT} % of due checks run: ${verdict(met.run)} (${pct(seen.runPercent)})`,
  );
  return {
    engine,
    windowS,
    healthyMs,
    settle,
    shares: { start: shares0, end: shares1 },
    seed: { ms: created.ms, perSecond: (1000 * MONITORS) / created.ms, postMs: post },
    ...seen,
    processes: server,
    serverCpuSeconds: serverCpuS,
    cpuMsPerCheck,
    postgresBackends: pgServer ?? null,
    targetCpuSeconds: target1 - target0,
    databaseBytes: { start: db0, end: db1, growth: db1.total - db0.total },
    leaseRenewals: lease,
    loadavg: { start: load0, end: load1 },
    workerPidsSeen: workerPids.map((p) => p.pid),
    workerExitsLogged: workerExits,
    shutdown: stopped,
    logged,
    complaints: complaints.slice(-50),
    met,
  };
}

await runBench(NAME, async () => {
  const unknown = ENGINES.filter((e) => !['sqlite', 'postgres'].includes(e));
  if (unknown.length > 0) throw new Error(`BENCH_ENGINE: sqlite, postgres or both, not ${ENGINE}`);
  if (ENGINES.includes('postgres') && !(await pgReachable())) {
    throw new Error(`PostgreSQL at ${postgresUrl} is not reachable (BENCH_ENGINE=sqlite skips it)`);
  }
  console.log(
    `${NAME}: ${MONITORS} HTTP monitors every ${INTERVAL_S} s, PAGEWATCH_WORKERS=${WORKERS}, on ${ENGINES.join(' then ')}`,
  );
  const env = printEnvironment();
  const server = await preflight();
  const runs = [];
  for (const engine of ENGINES) runs.push(await runEngine(engine));

  printTable(`${NAME}: summary (${MONITORS} monitors at ${INTERVAL_S} s, ${WORKERS} processes)`, [
    [
      'engine',
      'run',
      'p50',
      'p99',
      'p99.9',
      'max',
      'CPU/check',
      'server CPU',
      'RSS peaks',
      'DB growth',
      'verdict',
    ],
    ...runs.map((r) => [
      r.engine,
      pct(r.runPercent),
      ms(r.latenessMs.p50, 0),
      ms(r.latenessMs.p99, 0),
      ms(r.latenessMs['p99.9'], 0),
      ms(r.latenessMs.max, 0),
      `${r.cpuMsPerCheck.toFixed(3)} ms`,
      pct((100 * r.serverCpuSeconds) / r.windowS, 0),
      r.processes.map((p) => mb(p.rss.max)).join(' / '),
      mb(r.databaseBytes.growth),
      r.met.lateness && r.met.run ? 'met' : 'MISSED',
    ]),
  ]);
  writeResult(
    NAME,
    {
      settings: { MONITORS, INTERVAL_S, DURATION_S, WARMUP_S, WORKERS, ENGINES, TIMEOUT_S },
      server,
      targets: { latenessP99Ms: LATENESS_BAR_MS, runPercent: RUN_BAR_PERCENT },
      runs,
    },
    env,
  );
});
