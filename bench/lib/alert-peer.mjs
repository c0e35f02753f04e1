// Loopback peer for the alert benchmarks, in its own process so its CPU is not the server's.
// Two roles on one port:
//   /site/…            the monitored site: 200 "ok", or refused with 503 once switched down
//   POST /__mode?down=1|0
//   POST /hook         a webhook receiver: records receipt time, event kind, monitor and `at`
//   GET /__alerts      { received: [[receivedAtMs, kind, monitorId, eventAtIso, deliveryTag]…] }
// BENCH_HOOK_DELAY_MS holds each webhook answer that long (a slow receiver).
import { Buffer } from 'node:buffer';
import http from 'node:http';

const delayMs = Number(process.env.BENCH_HOOK_DELAY_MS ?? 0);
let down = false;
const received = [];

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/__mode') {
    down = url.searchParams.get('down') === '1';
    res.writeHead(204, { connection: 'close' }).end();
    return;
  }
  if (url.pathname === '/__alerts') {
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify({ received }));
    return;
  }
  if (url.pathname === '/hook') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        let body = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // recorded without details
        }
        const e = body.event ?? body;
        received.push([Date.now(), e.kind ?? null, e.monitor?.id ?? null, e.at ?? null]);
        res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('ok');
      }, delayMs);
    });
    return;
  }
  if (down) {
    res.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('down');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2', connection: 'close' });
  res.end('ok');
});
server.keepAliveTimeout = 0;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});

process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
