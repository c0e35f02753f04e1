// check-cost-mq: CPU per check of MQTT, RabbitMQ (AMQP) and SMTP against loopback peers.
// Runs each check function in this process, one check after another (CHECKS each, after
// WARMUP), and divides this process's CPU time (user + system, process.cpuUsage) by the number
// of checks; wall time per check (p50, p99) beside it. The peers run outside this process, so
// their CPU is not counted: the shared Mosquitto and RabbitMQ named by PAGEWATCH_TEST_MQTT_URL
// and PAGEWATCH_TEST_AMQP_URL (the loopback defaults below otherwise), and smtp-server started
// in a child process with a self-signed certificate made by openssl for 127.0.0.1.
// BENCH_SERVER_DIST points at a server build other than server/dist.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { root, runBench } from '../lib/run.mjs';
import { ms, printEnvironment, printTable, summarize, writeResult } from '../lib/stats.mjs';

const NAME = 'check-cost-mq';
const CHECKS = Number(process.env.BENCH_CHECKS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const dist = process.env.BENCH_SERVER_DIST ?? path.join(root, 'server/dist');
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const serverRequire = createRequire(path.join(root, 'server/package.json'));

const mqttUrl = new URL(process.env.PAGEWATCH_TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883');
const amqpUrl = new URL(process.env.PAGEWATCH_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');

const common = { ignoreTrust: false, warnDays: 14, timeoutMs: 5000, degradedThresholdMs: null };

async function measure(label, run, want) {
  const signal = new globalThis.AbortController().signal;
  for (let i = 0; i < WARMUP; i++) await run({ signal });
  const walls = [];
  const outcomes = new Map();
  const before = process.cpuUsage();
  for (let i = 0; i < CHECKS; i++) {
    const started = performance.now();
    const result = await run({ signal });
    walls.push(performance.now() - started);
    const key = result.errorCode ?? result.outcome;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const cpu = process.cpuUsage(before);
  const wall = summarize(walls);
  const seen = [...outcomes.entries()].map(([k, n]) => `${k} ×${n}`).join(', ');
  if (!outcomes.has(want)) throw new Error(`${label}: expected ${want}, saw ${seen}`);
  return {
    label,
    checks: CHECKS,
    cpuMsPerCheck: (cpu.user + cpu.system) / 1000 / CHECKS,
    wallP50: wall.p50,
    wallP99: wall.p99,
    outcomes: seen,
  };
}

/** smtp-server with STARTTLS in a child process; resolves with its port and a stopper. */
async function startSmtpPeer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-bench-smtp-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '30',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const script = `
    const fs = require('node:fs');
    const { SMTPServer } = require('smtp-server');
    const s = new SMTPServer({ logger: false, size: 10485760,
      key: fs.readFileSync(${JSON.stringify(path.join(dir, 'key.pem'))}),
      cert: fs.readFileSync(${JSON.stringify(path.join(dir, 'cert.pem'))}),
      onData: (_s, _x, done) => done(new Error('no mail')) });
    s.on('error', () => {});
    s.listen(0, '127.0.0.1', () => console.log(s.server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], {
    cwd: path.join(root, 'server'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`smtp peer exited ${code}`)));
  });
  return {
    port,
    stop: () => {
      child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

await runBench(NAME, async () => {
  const env = printEnvironment();
  const { runMqttCheck } = await load('engine/checks/mqtt/index.js');
  const { runAmqpCheck } = await load('engine/checks/amqp/index.js');
  const { runSmtpCheck } = await load('engine/checks/smtp/index.js');
  const amqplib = serverRequire('amqplib');
  const queue = `pagewatch-bench-${process.pid}`;
  const connection = await amqplib.connect(amqpUrl.href);
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, { durable: false, autoDelete: false });
  const smtp = await startSmtpPeer();
  const rows = [];
  try {
    const mqtt = {
      ...common,
      host: mqttUrl.hostname,
      port: Number(mqttUrl.port || 1883),
      username: decodeURIComponent(mqttUrl.username),
      password: decodeURIComponent(mqttUrl.password),
      tls: false,
      topic: '',
      match: 'keyword',
      jsonPath: '',
      expected: '',
    };
    rows.push(
      await measure('mqtt connect', (ctx) => runMqttCheck({ ...mqtt, mode: 'connect' }, ctx), 'up'),
    );
    rows.push(
      await measure(
        'mqtt round trip (subscribe, publish, receive)',
        (ctx) =>
          runMqttCheck(
            { ...mqtt, mode: 'roundtrip', topic: `pagewatch/bench/${process.pid}` },
            ctx,
          ),
        'up',
      ),
    );
    const amqp = {
      ...common,
      host: amqpUrl.hostname,
      port: Number(amqpUrl.port || 5672),
      vhost: '/',
      username: decodeURIComponent(amqpUrl.username) || 'guest',
      password: decodeURIComponent(amqpUrl.password) || 'guest',
      tls: false,
      queue: '',
      maxDepth: null,
    };
    rows.push(await measure('amqp login + vhost', (ctx) => runAmqpCheck(amqp, ctx), 'up'));
    rows.push(
      await measure(
        'amqp login + passive declare (depth)',
        (ctx) => runAmqpCheck({ ...amqp, queue, maxDepth: 1000 }, ctx),
        'up',
      ),
    );
    const mail = {
      ...common,
      host: '127.0.0.1',
      port: smtp.port,
      ehloName: '',
      capabilities: ['SIZE'],
      ignoreTrust: true,
    };
    rows.push(
      await measure(
        'smtp greeting + EHLO (plain)',
        (ctx) => runSmtpCheck({ ...mail, security: 'none' }, ctx),
        'up',
      ),
    );
    rows.push(
      await measure(
        'smtp greeting + EHLO + STARTTLS + EHLO',
        (ctx) => runSmtpCheck({ ...mail, security: 'starttls' }, ctx),
        'up',
      ),
    );
  } finally {
    smtp.stop();
    await channel.deleteQueue(queue).catch(() => undefined);
    await connection.close();
  }
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
