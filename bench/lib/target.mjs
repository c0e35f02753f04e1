// The monitored site for the benchmarks, in its own process so its CPU is not the server's.
// Answers 200 "ok" and closes the connection (no keep-alive); records when each path was hit.
// GET /__stats returns { total, arrivals: { path: [epoch ms…] } }; it is not counted itself.
//
// Compact mode (BENCH_TARGET_COMPACT=1, for 100,000 paths and thousands of requests a second):
// paths are /m/<n> and each hit is kept as the pair [n, epoch ms] in one growing typed array
// instead of an array per path. GET /__stats then returns only { total, recorded, other }, and
// GET /__arrivals?from=<k> sends the pairs from the k-th on as raw little-endian float64s
// (n, ms, n, ms, …), without building JSON. Other paths are answered and counted in `other`.
import { Buffer } from 'node:buffer';
import http from 'node:http';

const compact = process.env.BENCH_TARGET_COMPACT === '1';
const arrivals = new Map();
let total = 0;
let other = 0;
let pairs = new Float64Array(compact ? 2 * 2 ** 20 : 0);
let recorded = 0;

function record(key, at) {
  if (2 * recorded === pairs.length) {
    const grown = new Float64Array(pairs.length * 2);
    grown.set(pairs);
    pairs = grown;
  }
  pairs[2 * recorded] = key;
  pairs[2 * recorded + 1] = at;
  recorded += 1;
}

function stats(req, res) {
  if (req.url.startsWith('/__arrivals?')) {
    const from = Math.min(recorded, Number(new URL(req.url, 'http://x').searchParams.get('from')));
    // A view of the entries so far: later hits write past its end (or into a grown copy).
    const body = Buffer.from(pairs.buffer, 16 * from, 16 * (recorded - from));
    res.writeHead(200, { 'content-type': 'application/octet-stream', connection: 'close' });
    res.end(body);
    return;
  }
  const figures = compact
    ? { total, recorded, other }
    : { total, arrivals: Object.fromEntries(arrivals) };
  res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(figures));
}

const server = http.createServer((req, res) => {
  if (req.url === '/__stats' || req.url.startsWith('/__arrivals?')) {
    stats(req, res);
    return;
  }
  total += 1;
  const at = Date.now();
  if (compact) {
    const key = req.url.startsWith('/m/') ? Number(req.url.slice(3)) : NaN;
    if (Number.isInteger(key)) record(key, at);
    else other += 1;
  } else {
    const list = arrivals.get(req.url);
    if (list) list.push(at);
    else arrivals.set(req.url, [at]);
  }
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2', connection: 'close' });
  res.end('ok');
});
server.keepAliveTimeout = 0;

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});

// The bench holds our stdin open; when it goes away (even killed), so do we.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
