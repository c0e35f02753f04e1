// cluster-leases: what the cluster coordination costs at idle (ADR 21). For 1, 2 and 3
// members on one database (PostgreSQL, and one SQLite file), each with its own connection as
// a process would have: statements per second per member once the shares have settled, and
// the lease renewal round trip (heartbeat, member list, renewals) p50/p99, and on PostgreSQL
// the rows the lease tables update per second (pg_stat_user_tables). Default timings
// (renew 2 s, expire 8 s). BENCH_DURATION_S (default 20) is the measured window per size;
// BENCH_POSTGRES_URL (default PAGEWATCH_TEST_POSTGRES_URL, else the local server) the database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { benchSchema, pgQuery, pgReachable, postgresUrl } from '../lib/postgres.mjs';
import { now, onCleanup, root, runBench, sleep } from '../lib/run.mjs';
import { ms, printEnvironment, printTable, summarize, writeResult } from '../lib/stats.mjs';

const dist = (p) => path.join(root, 'server/dist', p);
const { ClusterMember, PartitionLeases, Singletons } = await import(dist('cluster/index.js'));
const { openDatabase } = await import(dist('db/database.js'));
const { clusterRepository } = await import(dist('db/repositories/cluster.js'));

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
const SIZES = [1, 2, 3];

/** Counts every statement a Kysely instance executes (raw ones included). */
function counting() {
  const counter = { n: 0 };
  const plugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      counter.n += 1;
      return args.result;
    },
  };
  return { counter, plugin };
}

async function startMember(target, name) {
  const database = await openDatabase(target);
  const { counter, plugin } = counting();
  const renewals = [];
  const member = new ClusterMember({
    repo: clusterRepository(database.db.withPlugin(plugin), database.engine),
    name,
    version: 'bench',
    capacity: 1,
    roles: ['web', 'scheduler', 'notifier'],
    logger: pino({ level: 'warn' }),
    observer: { renewal: (s) => renewals.push(s * 1000), takeovers: () => {} },
  });
  // Settling shortened so the bench reaches idle sooner; renewal and expiry stay the defaults.
  const partitions = new PartitionLeases(member, { settleMs: 2_000 });
  const singletons = new Singletons(member);
  singletons.lease('housekeeping');
  singletons.lease('retention');
  await member.start();
  return { member, partitions, database, counter, renewals };
}

async function pgSchema() {
  const { schema, drop } = await benchSchema();
  /** Rows updated in the lease tables so far (statistics are flushed within about a second). */
  const updates = async () => {
    const rows = await pgQuery(
      `select coalesce(sum(n_tup_upd), 0)::int as n from pg_stat_user_tables
       where schemaname = $1 and relname in ('cluster_members', 'cluster_partitions', 'cluster_singletons')`,
      [schema],
    );
    return rows[0].n;
  };
  return { target: { kind: 'postgres', url: postgresUrl, schema }, drop, updates };
}

function sqliteFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-bench-'));
  const drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  return { target: { kind: 'sqlite', file: path.join(dir, 'bench.db') }, drop, updates: null };
}

async function measure(engine, size) {
  const { target, drop, updates } = engine === 'postgres' ? await pgSchema() : sqliteFile();
  const members = [];
  const stop = async () => {
    for (const m of members.splice(0)) {
      await m.member.stop();
      await m.database.close();
    }
    await drop();
  };
  onCleanup(stop);
  for (let i = 0; i < size; i++) members.push(await startMember(target, `bench-${i}`));
  // Idle: the shares have settled and no drain is in flight.
  const settledBy = now() + 60_000;
  const target1024 = Math.floor(1024 / size);
  while (
    members.some((m) => Math.abs(m.partitions.owned().length - target1024) > 4) ||
    new Set(members.flatMap((m) => m.partitions.owned())).size !== 1024
  ) {
    if (now() > settledBy) throw new Error(`${size} members did not settle within 60 s`);
    await sleep(200);
  }
  await sleep(4_000);
  const before = members.map((m) => m.counter.n);
  for (const m of members) m.renewals.length = 0;
  const rowsBefore = await updates?.();
  const t0 = now();
  const rowsFrom = t0;
  await sleep(DURATION_S * 1000);
  const seconds = (now() - t0) / 1000;
  // Both reads lag the backends' statistics flush by about the same: rate over the reads.
  await sleep(updates ? 1_500 : 0);
  const rowsAfter = await updates?.();
  const rowSeconds = (now() - rowsFrom) / 1000;
  const perMember = members.map((m, i) => (m.counter.n - before[i]) / seconds);
  const latencies = members.flatMap((m) => m.renewals);
  const s = summarize(latencies);
  await stop();
  return {
    engine,
    members: size,
    statementsPerMemberPerSecond: perMember.reduce((a, b) => a + b, 0) / size,
    statementsPerSecondTotal: perMember.reduce((a, b) => a + b, 0),
    rowsUpdatedPerSecond: updates ? (rowsAfter - rowsBefore) / rowSeconds : null,
    renewals: latencies.length,
    renewalP50Ms: s.p50,
    renewalP99Ms: s.p99,
    renewalMaxMs: s.max,
  };
}

await runBench('cluster-leases', async () => {
  const env = printEnvironment();
  const engines = ['postgres', 'sqlite'];
  if (!(await pgReachable())) {
    console.log(`PostgreSQL at ${postgresUrl} is not reachable: SQLite only`);
    engines.shift();
  }
  const rows = [];
  for (const engine of engines) {
    for (const size of SIZES) {
      const r = await measure(engine, size);
      rows.push(r);
      console.log(
        `${engine} × ${size}: ${r.statementsPerMemberPerSecond.toFixed(2)} statements/s per member, renewal p50 ${ms(r.renewalP50Ms)} p99 ${ms(r.renewalP99Ms)}`,
      );
    }
  }
  printTable(`idle lease overhead over ${DURATION_S} s (renew 2 s, expire 8 s)`, [
    [
      'engine',
      'members',
      'stmts/s per member',
      'stmts/s total',
      'rows updated/s',
      'renewals',
      'p50',
      'p99',
      'max',
    ],
    ...rows.map((r) => [
      r.engine,
      r.members,
      r.statementsPerMemberPerSecond.toFixed(2),
      r.statementsPerSecondTotal.toFixed(2),
      r.rowsUpdatedPerSecond?.toFixed(0) ?? '–',
      r.renewals,
      ms(r.renewalP50Ms, 2),
      ms(r.renewalP99Ms, 2),
      ms(r.renewalMaxMs, 2),
    ]),
  ]);
  writeResult('cluster-leases', { durationS: DURATION_S, rows }, env);
});
