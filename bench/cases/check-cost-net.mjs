// check-cost-net: CPU per check of ping, UDP, WebSocket and gRPC against loopback peers, and
// ping at 1,000 hosts every 30 s.
// Part 1 runs each check function in this process, one check after another (CHECKS each, after
// WARMUP), and divides CPU time by the checks. Ping runs the system ping, so its CPU is this
// process's plus its reaped children's (/proc/self/stat cutime + cstime); the peers (a UDP echo
// listener, a `ws` server, @grpc/grpc-js with the official health service) run in this process
// too and their CPU is counted, which overstates the check's own cost.
// Part 2 starts 1,000 ping checks (3 echo requests 1 s apart, as a new monitor has) to
// 127.0.0.1–127.0.3.232 spread evenly over 30 s, as the scheduler would, and reports outcomes,
// the wall time of each check and the CPU of this process plus the ping processes over the
// window (BENCH_PING_SECONDS shortens it, BENCH_PING_HOSTS changes the count).
// BENCH_SERVER_DIST points at a server build other than server/dist.
import dgram from 'node:dgram';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, runBench } from '../lib/run.mjs';
import { ms, printEnvironment, printTable, summarize, writeResult } from '../lib/stats.mjs';

const NAME = 'check-cost-net';
const CHECKS = Number(process.env.BENCH_CHECKS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const PING_HOSTS = Number(process.env.BENCH_PING_HOSTS ?? 1000);
const PING_SECONDS = Number(process.env.BENCH_PING_SECONDS ?? 30);
const dist = process.env.BENCH_SERVER_DIST ?? path.join(root, 'server/dist');
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
// The peers' libraries are the server's (dev) dependencies.
const serverRequire = createRequire(path.join(root, 'server/package.json'));

/** The loopback peers, as in server/test/fixtures/net-peers.ts (plain JS here: no TS loader). */
async function startPeers() {
  const { WebSocketServer } = serverRequire('ws');
  const grpcJs = serverRequire('@grpc/grpc-js');
  const { HealthImplementation } = serverRequire('grpc-health-check');
  const udp = dgram.createSocket('udp4');
  udp.on('message', (msg, from) => udp.send(msg, from.port, from.address));
  udp.bind(0, '127.0.0.1');
  await once(udp, 'listening');
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => ws.on('message', (d) => ws.send(`echo: ${d.toString()}`)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const grpc = new grpcJs.Server();
  new HealthImplementation({ '': 'SERVING' }).addToServer(grpc);
  const grpcPort = await new Promise((resolve, reject) =>
    grpc.bindAsync('127.0.0.1:0', grpcJs.ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve(port),
    ),
  );
  return {
    udpPort: udp.address().port,
    wsUrl: `ws://127.0.0.1:${server.address().port}/`,
    grpcPort,
    close: async () => {
      udp.close();
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      server.close();
      grpc.forceShutdown();
    },
  };
}

/** CPU ms of this process and of its waited-for children (Linux, 100 ticks a second). */
function cpuNow() {
  const own = process.cpuUsage();
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // After "pid (comm) ": state is field 0, so utime is 11, stime 12, cutime 13, cstime 14.
  const children = (Number(fields[13]) + Number(fields[14])) * 10;
  return { own: (own.user + own.system) / 1000, children };
}

async function measure(label, run, want, checks = CHECKS, warmup = WARMUP) {
  const signal = new globalThis.AbortController().signal;
  for (let i = 0; i < warmup; i++) await run({ signal });
  const walls = [];
  const outcomes = new Map();
  const before = cpuNow();
  for (let i = 0; i < checks; i++) {
    const started = performance.now();
    const result = await run({ signal });
    walls.push(performance.now() - started);
    const key = result.errorCode ?? result.outcome;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const after = cpuNow();
  const wall = summarize(walls);
  const seen = [...outcomes.entries()].map(([k, n]) => `${k} ×${n}`).join(', ');
  if (!outcomes.has(want)) throw new Error(`${label}: expected ${want}, saw ${seen}`);
  return {
    label,
    checks,
    cpuMsPerCheck: (after.own - before.own + after.children - before.children) / checks,
    childMsPerCheck: (after.children - before.children) / checks,
    wallP50: wall.p50,
    wallP99: wall.p99,
    outcomes: seen,
  };
}

async function pingFleet(runPingCheck) {
  const hosts = Array.from({ length: PING_HOSTS }, (_, i) => {
    const n = i + 1;
    return `127.0.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  });
  const gap = (PING_SECONDS * 1000) / PING_HOSTS;
  const before = cpuNow();
  const started = performance.now();
  const walls = [];
  const lateness = [];
  const outcomes = new Map();
  const pending = hosts.map(
    (host, i) =>
      new Promise((resolve) => {
        const due = started + i * gap;
        setTimeout(async () => {
          const begin = performance.now();
          lateness.push(begin - due);
          const result = await runPingCheck(
            {
              host,
              ipFamily: 'auto',
              count: 3,
              packetIntervalMs: 1000,
              lossDegradedPercent: 0,
              timeoutMs: 10_000,
              degradedThresholdMs: null,
            },
            { signal: new globalThis.AbortController().signal },
          );
          walls.push(performance.now() - begin);
          const key = result.errorCode ?? result.outcome;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          resolve();
        }, i * gap);
      }),
  );
  await Promise.all(pending);
  const elapsed = performance.now() - started;
  const after = cpuNow();
  const cpu = after.own - before.own + after.children - before.children;
  return {
    hosts: PING_HOSTS,
    seconds: PING_SECONDS,
    elapsedS: elapsed / 1000,
    cpuMs: cpu,
    cpuPercentOfCore: (cpu / elapsed) * 100,
    cpuMsPerCheck: cpu / PING_HOSTS,
    wall: summarize(walls),
    lateness: summarize(lateness),
    outcomes: [...outcomes.entries()].map(([k, n]) => `${k} ×${n}`).join(', '),
  };
}

await runBench(NAME, async () => {
  const env = printEnvironment();
  const { runPingCheck } = await load('engine/checks/ping/index.js');
  const { runUdpCheck } = await load('engine/checks/udp/index.js');
  const { runWebSocketCheck } = await load('engine/checks/websocket/index.js');
  const { runGrpcCheck } = await load('engine/checks/grpc/index.js');
  const peers = await startPeers();
  const base = { timeoutMs: 5000, degradedThresholdMs: null };
  const rows = [];
  try {
    const ping = (count) => (ctx) =>
      runPingCheck(
        {
          ...base,
          host: '127.0.0.1',
          ipFamily: 'auto',
          count,
          packetIntervalMs: 200,
          lossDegradedPercent: 0,
        },
        ctx,
      );
    const fewer = Math.max(10, Math.round(CHECKS / 5));
    rows.push(await measure('ping 127.0.0.1, 1 echo request', ping(1), 'up', fewer, 3));
    rows.push(
      await measure(
        'ping 127.0.0.1, 3 requests 200 ms apart',
        ping(3),
        'up',
        Math.max(5, Math.round(CHECKS / 20)),
        1,
      ),
    );
    rows.push(
      await measure(
        'udp send + reply',
        (ctx) =>
          runUdpCheck(
            {
              ...base,
              host: '127.0.0.1',
              port: peers.udpPort,
              format: 'text',
              send: 'ping',
              expect: 'ping',
            },
            ctx,
          ),
        'up',
      ),
    );
    rows.push(
      await measure(
        'websocket upgrade + message + close',
        (ctx) =>
          runWebSocketCheck(
            {
              ...base,
              url: peers.wsUrl,
              send: 'hi',
              expectKind: 'keyword',
              expectPath: '',
              expectValue: 'echo: hi',
              ignoreTls: false,
            },
            ctx,
          ),
        'up',
      ),
    );
    rows.push(
      await measure(
        'grpc health Check (plain)',
        (ctx) =>
          runGrpcCheck(
            {
              ...base,
              host: '127.0.0.1',
              port: peers.grpcPort,
              service: '',
              tls: false,
              ignoreTls: false,
            },
            ctx,
          ),
        'up',
      ),
    );
  } finally {
    await peers.close();
  }
  printTable(`CPU per check, one check after another after a warm-up (peers in this process)`, [
    ['check', 'checks', 'CPU ms/check', 'of it ping processes', 'wall p50', 'wall p99', 'outcomes'],
    ...rows.map((r) => [
      r.label,
      r.checks,
      r.cpuMsPerCheck.toFixed(2),
      r.childMsPerCheck.toFixed(2),
      ms(r.wallP50),
      ms(r.wallP99),
      r.outcomes,
    ]),
  ]);
  const fleet = await pingFleet(runPingCheck);
  printTable(
    `Ping at ${fleet.hosts} loopback hosts over ${fleet.seconds} s (3 requests 1 s apart)`,
    [
      [
        'hosts',
        'elapsed',
        'CPU ms',
        '% of a core',
        'CPU ms/check',
        'check wall p50',
        'p99',
        'start lateness p99',
        'outcomes',
      ],
      [
        fleet.hosts,
        `${fleet.elapsedS.toFixed(1)} s`,
        fleet.cpuMs.toFixed(0),
        fleet.cpuPercentOfCore.toFixed(1),
        fleet.cpuMsPerCheck.toFixed(2),
        ms(fleet.wall.p50),
        ms(fleet.wall.p99),
        ms(fleet.lateness.p99),
        fleet.outcomes,
      ],
    ],
  );
  writeResult(NAME, { checks: CHECKS, warmup: WARMUP, rows, fleet }, env);
});
