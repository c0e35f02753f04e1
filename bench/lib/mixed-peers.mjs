// The loopback peers of the mixed-monitors bench, in a process of their own so their CPU is not
// the server's nor the measuring process's: TCP, TLS (self-signed for 127.0.0.1), a DNS
// responder (A → 127.0.0.1 for any name), a UDP echo, a `ws` echo, a gRPC health server
// (@grpc/grpc-js + grpc-health-check), smtp-server with STARTTLS, IMAP and POP3 greeters, and
// an RDAP registry answering every domain. Prints {"ports":…} as its first line.
// Commands on stdin, one JSON line each:
//   {"push": {"port": <server port>, "tokens": [...], "everyS": 60}}  pushes every token once
//   per period, spread evenly over it, to /api/push/<token> (the heartbeat job's role).
//   {"stats": true}  prints {"stats": {...}} (pushes sent, failed, connections per peer).
// Exits when stdin closes (the bench went away, even killed) or on SIGTERM.
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { setInterval, setTimeout } from 'node:timers';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The peers' libraries are the server's (dev) dependencies.
const serverRequire = createRequire(path.join(root, 'server/package.json'));
const counts = { tcp: 0, tls: 0, dns: 0, udp: 0, websocket: 0, grpc: 0, smtp: 0, imap: 0 };
Object.assign(counts, { pop3: 0, rdap: 0, pushSent: 0, pushFailed: 0 });

const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-bench-mixed-peers-'));
process.on('exit', () => fs.rmSync(certDir, { recursive: true, force: true }));
execFileSync(
  'openssl',
  [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-days', '60', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ...['-keyout', path.join(certDir, 'key.pem'), '-out', path.join(certDir, 'cert.pem')],
  ],
  { stdio: 'ignore' },
);
const pair = {
  key: fs.readFileSync(path.join(certDir, 'key.pem')),
  cert: fs.readFileSync(path.join(certDir, 'cert.pem')),
};

const listen = async (server, port = 0) => {
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server.address().port;
};
const quiet = (socket) => socket.on('error', () => undefined);

async function tcpPeer() {
  return listen(
    net.createServer((s) => {
      counts.tcp += 1;
      quiet(s);
      s.end('SSH-2.0-bench\r\n');
    }),
  );
}

async function tlsPeer() {
  // Counted per connection: the check may hang up as soon as it has the certificate.
  const server = tls.createServer(pair, (s) => {
    quiet(s);
    s.end();
  });
  server.on('connection', () => (counts.tls += 1));
  server.on('tlsClientError', () => undefined);
  return listen(server);
}

/** Answers every A question with 127.0.0.1 (TTL 60) and anything else with no records. */
async function dnsPeer() {
  const sock = dgram.createSocket('udp4');
  sock.on('message', (msg, from) => {
    counts.dns += 1;
    let end = 12;
    while (end < msg.length && msg[end] !== 0) end += msg[end] + 1;
    const question = msg.subarray(12, end + 5);
    const type = msg.readUInt16BE(end + 1);
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180 | (msg.readUInt16BE(2) & 0x0100), 2); // answer, recursion
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(type === 1 ? 1 : 0, 6);
    const answer =
      type === 1
        ? Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1])
        : Buffer.alloc(0);
    sock.send(Buffer.concat([header, question, answer]), from.port, from.address);
  });
  sock.bind(0, '127.0.0.1');
  await once(sock, 'listening');
  return sock.address().port;
}

async function udpPeer() {
  const sock = dgram.createSocket('udp4');
  sock.on('message', (msg, from) => {
    counts.udp += 1;
    sock.send(msg, from.port, from.address);
  });
  sock.bind(0, '127.0.0.1');
  await once(sock, 'listening');
  return sock.address().port;
}

async function wsPeer() {
  const { WebSocketServer } = serverRequire('ws');
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    counts.websocket += 1;
    ws.on('error', () => undefined);
    ws.on('message', (d) => ws.send(`echo: ${d.toString()}`));
  });
  return listen(server);
}

async function grpcPeer() {
  const grpcJs = serverRequire('@grpc/grpc-js');
  const { HealthImplementation } = serverRequire('grpc-health-check');
  const server = new grpcJs.Server();
  // Counted as the health service's Check is called.
  const add = server.addService.bind(server);
  server.addService = (service, impl) =>
    add(service, {
      ...impl,
      check: (call, callback) => {
        counts.grpc += 1;
        impl.check(call, callback);
      },
    });
  new HealthImplementation({ '': 'SERVING' }).addToServer(server);
  return new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpcJs.ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve(port),
    ),
  );
}

async function smtpPeer() {
  const { SMTPServer } = serverRequire('smtp-server');
  const server = new SMTPServer({
    ...pair,
    logger: false,
    size: 10_485_760,
    onConnect: (_s, done) => {
      counts.smtp += 1;
      done();
    },
    onData: (_s, _x, done) => done(new Error('no mail')),
  });
  server.on('error', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  return server.server.address().port;
}

/** Greeting and goodbye only (the mail checks with security "none" say no more). */
async function greeterPeer(protocol) {
  const greeting = protocol === 'imap' ? '* OK [CAPABILITY IMAP4rev1] ready' : '+OK POP3 ready';
  return listen(
    net.createServer((s) => {
      counts[protocol] += 1;
      quiet(s);
      s.write(`${greeting}\r\n`);
      s.on('data', (chunk) => {
        const line = chunk.toString('latin1');
        if (/LOGOUT/i.test(line)) s.end(`* BYE\r\n${line.split(' ')[0]} OK\r\n`);
        else if (/QUIT/i.test(line)) s.end('+OK bye\r\n');
      });
    }),
  );
}

/** Every domain is registered and expires in 200 days. */
async function rdapPeer() {
  const body = JSON.stringify({
    objectClassName: 'domain',
    events: [
      {
        eventAction: 'expiration',
        eventDate: new Date(Date.now() + 200 * 86_400_000).toISOString(),
      },
    ],
  });
  const server = http.createServer((_req, res) => {
    counts.rdap += 1;
    res.writeHead(200, { 'content-type': 'application/rdap+json' });
    res.end(body);
  });
  return listen(server);
}

// ── the heartbeat jobs: each token pushed once per period, spread evenly ──
const pushAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const pushTimers = [];

function pushOnce(port, token) {
  const req = http.request(
    { host: '127.0.0.1', port, path: `/api/push/${token}`, method: 'POST', agent: pushAgent },
    (res) => {
      res.resume();
      if (res.statusCode < 300) counts.pushSent += 1;
      else counts.pushFailed += 1;
    },
  );
  req.on('error', () => (counts.pushFailed += 1));
  req.end();
}

function startPushing({ port, tokens, everyS }) {
  const gapMs = (everyS * 1000) / Math.max(1, tokens.length);
  tokens.forEach((token, i) => {
    const first = setTimeout(() => {
      pushOnce(port, token);
      pushTimers.push(setInterval(() => pushOnce(port, token), everyS * 1000));
    }, i * gapMs);
    pushTimers.push(first);
  });
}

const ports = {
  tcp: await tcpPeer(),
  tls: await tlsPeer(),
  dns: await dnsPeer(),
  udp: await udpPeer(),
  websocket: await wsPeer(),
  grpc: await grpcPeer(),
  smtp: await smtpPeer(),
  imap: await greeterPeer('imap'),
  pop3: await greeterPeer('pop3'),
  rdap: await rdapPeer(),
};
process.stdout.write(`${JSON.stringify({ ports })}\n`);

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line);
  if (command.push) startPushing(command.push);
  if (command.stats) process.stdout.write(`${JSON.stringify({ stats: counts })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
