// check-cost-db: CPU per check of the database types against their loopback peers.
// Runs each check type's function in this process, one check after another (CHECKS each,
// after WARMUP), and divides this process's CPU time (user + system, process.cpuUsage) by the
// number of checks; wall time per check (p50, p99) beside it. The peers are the real servers
// named by PAGEWATCH_TEST_POSTGRES_URL, PAGEWATCH_TEST_MYSQL_URL and PAGEWATCH_TEST_REDIS_URL
// (the loopback defaults below otherwise). MongoDB has no server here: its row is a refused
// connection, which still costs the driver's setup and teardown. The servers' own CPU is not
// counted. BENCH_SERVER_DIST points at a server build other than server/dist.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { root, runBench } from '../lib/run.mjs';
import { ms, printEnvironment, printTable, summarize, writeResult } from '../lib/stats.mjs';

const NAME = 'check-cost-db';
const CHECKS = Number(process.env.BENCH_CHECKS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const dist = process.env.BENCH_SERVER_DIST ?? path.join(root, 'server/dist');
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);

const pgUrl = new URL(
  process.env.PAGEWATCH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
);
const myUrl = new URL(process.env.PAGEWATCH_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test');
const redisUrl = new URL(process.env.PAGEWATCH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

const common = {
  password: '',
  tls: false,
  ignoreTrust: false,
  warnDays: 14,
  expected: '',
  timeoutMs: 5000,
  degradedThresholdMs: null,
};

async function measure(label, run, want, checks = CHECKS, warmup = WARMUP) {
  const signal = new globalThis.AbortController().signal;
  for (let i = 0; i < warmup; i++) await run({ signal });
  const walls = [];
  const outcomes = new Map();
  const before = process.cpuUsage();
  for (let i = 0; i < checks; i++) {
    const started = performance.now();
    const result = await run({ signal });
    walls.push(performance.now() - started);
    const key = result.errorCode ?? result.outcome;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const cpu = process.cpuUsage(before);
  const cpuMsPerCheck = (cpu.user + cpu.system) / 1000 / checks;
  const wall = summarize(walls);
  const seen = [...outcomes.entries()].map(([k, n]) => `${k} ×${n}`).join(', ');
  if (!outcomes.has(want)) throw new Error(`${label}: expected ${want}, saw ${seen}`);
  return { label, checks, cpuMsPerCheck, wallP50: wall.p50, wallP99: wall.p99, outcomes: seen };
}

await runBench(NAME, async () => {
  const env = printEnvironment();
  const { runPostgresCheck } = await load('engine/checks/postgres/index.js');
  const { runMysqlCheck } = await load('engine/checks/mysql/index.js');
  const { runRedisCheck } = await load('engine/checks/redis/index.js');
  const { runMongodbCheck } = await load('engine/checks/mongodb/index.js');
  const rows = [];
  rows.push(
    await measure(
      'postgres SELECT 1',
      (ctx) =>
        runPostgresCheck(
          {
            ...common,
            host: pgUrl.hostname,
            port: Number(pgUrl.port || 5432),
            database: pgUrl.pathname.slice(1),
            username: decodeURIComponent(pgUrl.username) || 'postgres',
            query: '',
          },
          ctx,
        ),
      'up',
    ),
  );
  rows.push(
    await measure(
      'mysql SELECT 1 (read-only, time limit)',
      (ctx) =>
        runMysqlCheck(
          {
            ...common,
            host: myUrl.hostname,
            port: Number(myUrl.port || 3306),
            database: myUrl.pathname.slice(1),
            username: decodeURIComponent(myUrl.username) || 'root',
            query: '',
          },
          ctx,
        ),
      'up',
    ),
  );
  rows.push(
    await measure(
      'redis PING',
      (ctx) =>
        runRedisCheck(
          {
            ...common,
            host: redisUrl.hostname,
            port: Number(redisUrl.port || 6379),
            database: 0,
            username: '',
            command: '',
          },
          ctx,
        ),
      'up',
    ),
  );
  rows.push(
    await measure(
      'mongodb ping, refused (no server here)',
      (ctx) =>
        runMongodbCheck(
          {
            host: '127.0.0.1',
            port: 1,
            database: 'admin',
            username: '',
            password: '',
            tls: false,
            ignoreTrust: false,
            timeoutMs: 400,
            degradedThresholdMs: null,
          },
          ctx,
        ),
      'connect_refused',
      // The driver waits out server selection on a refused port: fewer, shorter checks.
      Math.max(5, Math.round(CHECKS / 10)),
      2,
    ),
  );
  printTable(`CPU per check, one check after another after a warm-up`, [
    ['check', 'checks', 'CPU ms/check', 'wall p50', 'wall p99', 'outcomes'],
    ...rows.map((r) => [
      r.label,
      r.checks,
      r.cpuMsPerCheck.toFixed(2),
      ms(r.wallP50),
      ms(r.wallP99),
      r.outcomes,
    ]),
  ]);
  writeResult(NAME, { checks: CHECKS, warmup: WARMUP, rows }, env);
});
