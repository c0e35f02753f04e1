// check-cost-time: CPU per check of domain expiry (RDAP) and the deadline of a cron push.
// - domain, fresh lookup: each check asks a loopback RDAP registry (the client's cache is
//   emptied before every check). The registry is an HTTP server in a child process, so its CPU
//   is not counted; parsing, bootstrap look-up, the public suffix list and fetch are.
// - domain, cached: what nearly every check costs (lookups are kept 12 h, ADR 46).
// - cron push deadline: heartbeatDueAt of a push monitor on "*/5 * * * *" in Europe/Berlin
//   (floating-time walk and zone conversion), called as the scheduler does after each ping.
// CPU is this process's user + system time (process.cpuUsage) over CHECKS runs after WARMUP.
// BENCH_SERVER_DIST points at a server build other than server/dist.
import { fork } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { root, runBench } from '../lib/run.mjs';
import { ms, printEnvironment, printTable, summarize, writeResult } from '../lib/stats.mjs';

const NAME = 'check-cost-time';
const CHECKS = Number(process.env.BENCH_CHECKS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const dist = process.env.BENCH_SERVER_DIST ?? path.join(root, 'server/dist');
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);

/** The registry: a child process answering every domain with an RDAP domain object. */
const REGISTRY = `
const http = require('node:http');
const body = JSON.stringify({
  objectClassName: 'domain',
  events: [{ eventAction: 'expiration', eventDate: new Date(Date.now() + 200 * 86400000).toISOString() }],
  entities: [{ roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', 'Bench Registrar']]] }],
});
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/rdap+json' });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

async function measure(label, run, want, checks = CHECKS, warmup = WARMUP) {
  for (let i = 0; i < warmup; i++) await run();
  const walls = [];
  const outcomes = new Map();
  const before = process.cpuUsage();
  for (let i = 0; i < checks; i++) {
    const started = performance.now();
    const key = await run();
    walls.push(performance.now() - started);
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const cpu = process.cpuUsage(before);
  const wall = summarize(walls);
  const seen = [...outcomes.entries()].map(([k, n]) => `${k} ×${n}`).join(', ');
  if (!outcomes.has(want)) throw new Error(`${label}: expected ${want}, saw ${seen}`);
  return {
    label,
    checks,
    cpuMsPerCheck: (cpu.user + cpu.system) / 1000 / checks,
    wallP50: wall.p50,
    wallP99: wall.p99,
    outcomes: seen,
  };
}

await runBench(NAME, async () => {
  const env = printEnvironment();
  const child = fork('-e', [REGISTRY], {
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise((resolve) => child.once('message', resolve));
    const { parseBootstrap } = await load('engine/checks/domain/bootstrap.js');
    const { RdapClient } = await load('engine/checks/domain/client.js');
    const { runDomainCheck } = await load('engine/checks/domain/index.js');
    const { heartbeatDueAt } = await load('domain/heartbeat.js');
    const bootstrap = parseBootstrap(
      JSON.stringify({ services: [[['test'], [`http://127.0.0.1:${port}/`]]] }),
    );
    const client = new RdapClient({ bootstrap });
    const signal = new globalThis.AbortController().signal;
    const spec = { domain: 'www.example.test', warnDays: 30, timeoutMs: 5000 };
    const check = async () => (await runDomainCheck(spec, { signal }, client)).errorCode ?? 'up';
    const rows = [];
    rows.push(
      await measure(
        'domain, fresh RDAP lookup',
        () => {
          client.reset();
          return check();
        },
        'up',
      ),
    );
    rows.push(await measure('domain, from the cache', check, 'up', CHECKS * 10, WARMUP));
    const now = Date.now();
    const push = {
      id: 1,
      type: 'push',
      interval: 60,
      settings: {
        graceSeconds: 60,
        schedule: { kind: 'cron', expression: '*/5 * * * *', timezone: 'Europe/Berlin' },
      },
      lastCheck: null,
      lastPingAt: now,
      createdAt: now - 86_400_000,
      updatedAt: now - 86_400_000,
    };
    let i = 0;
    rows.push(
      await measure(
        'cron push deadline (*/5, Europe/Berlin)',
        () => {
          // A different ping time each call: nothing is reused between calls but the parsed cron.
          push.lastPingAt = now + (i++ % 1000) * 61_000;
          return heartbeatDueAt(push) > push.lastPingAt ? 'due' : 'wrong';
        },
        'due',
        CHECKS * 10,
      ),
    );
    printTable(`CPU per check, one after another after a warm-up`, [
      ['check', 'runs', 'CPU ms/run', 'wall p50', 'wall p99', 'outcomes'],
      ...rows.map((r) => [
        r.label,
        r.checks,
        r.cpuMsPerCheck.toFixed(3),
        ms(r.wallP50),
        ms(r.wallP99),
        r.outcomes,
      ]),
    ]);
    writeResult(NAME, { checks: CHECKS, warmup: WARMUP, rows }, env);
  } finally {
    child.kill();
  }
});
