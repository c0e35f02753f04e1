// The monitored site for the benchmarks, in its own process so its CPU is not the server's.
// Answers 200 "ok" and closes the connection (no keep-alive); records when each path was hit.
// GET /__stats returns { total, arrivals: { path: [epoch ms…] } }; it is not counted itself.
import http from 'node:http';

const arrivals = new Map();
let total = 0;

const server = http.createServer((req, res) => {
  if (req.url === '/__stats') {
    const body = JSON.stringify({ total, arrivals: Object.fromEntries(arrivals) });
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
    res.end(body);
    return;
  }
  total += 1;
  const at = Date.now();
  const list = arrivals.get(req.url);
  if (list) list.push(at);
  else arrivals.set(req.url, [at]);
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
