// Shared helpers for the benchmarks: child processes that are always cleaned up,
// a tiny HTTP client, monitor seeding, /proc sampling, tables and result files.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export { sleep };
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// BENCH_SERVER_DIST: a server built elsewhere (`npx tsc -p server/tsconfig.build.json --outDir
// server/dist-<name>`), so a bench measures one engineer's build while others change theirs.
export const serverMain = path.join(
  path.resolve(process.env.BENCH_SERVER_DIST ?? path.join(root, 'server/dist')),
  'main.js',
);
export const now = () => performance.now();

// ── cleanup: children and temp dirs go away on success, failure, SIGINT and SIGTERM ──
const children = new Set();
const tempDirs = new Set();
const cleanups = [];

export function onCleanup(fn) {
  cleanups.push(fn);
}

async function cleanup() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()();
    } catch (err) {
      console.error('cleanup step failed:', err);
    }
  }
  for (const child of children) await stopChild(child, 'SIGTERM', 10_000);
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

// Last resort when the bench crashes or exits without cleaning up: nothing may outlive it.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs one benchmark's body; cleans up however it ends; exit code 1 on failure, 130 on a signal. */
export async function runBench(name, body) {
  let interrupted = false;
  const onSignal = (signal) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${name}: ${signal} received, stopping children and removing temp dirs…`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await body();
  } catch (err) {
    if (!interrupted) {
      console.error(`${name} failed:`, err);
      process.exitCode = 1;
    }
  } finally {
    if (!interrupted) await cleanup();
  }
}

export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pagewatch-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// ── child processes ──

/** Spawns a node process that is tracked for cleanup; keeps the tail of its output. */
export function spawnNode(args, { env = {}, label = 'child' } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  child.label = label;
  child.logLines = [];
  child.exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  const keep = (chunk) => {
    for (const line of String(chunk).split('\n')) {
      if (line.trim()) child.logLines.push(line);
    }
    if (child.logLines.length > 2000) child.logLines.splice(0, child.logLines.length - 2000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return child;
}

/** Signals a child and waits for it to exit; SIGKILL after `graceMs`. Resolves with the exit and ms taken. */
export async function stopChild(child, signal = 'SIGTERM', graceMs = 10_000) {
  const t0 = now();
  if (child.exitCode === null && child.signalCode === null) {
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const result = await child.exited;
    clearTimeout(timer);
    return { ...result, ms: now() - t0 };
  }
  return { ...(await child.exited), ms: 0 };
}

export function spawnServer({ dataDir, port, env = {}, nodeArgs = [] }) {
  if (!fs.existsSync(serverMain)) {
    throw new Error(`${serverMain} is missing: run \`npm run build\` first`);
  }
  // BENCH_CPU_PROF=<dir>: every server writes a V8 CPU profile there when it exits.
  const prof = process.env.BENCH_CPU_PROF;
  const profArgs = prof ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(prof)}`] : [];
  return spawnNode([...profArgs, ...nodeArgs, serverMain], {
    label: 'server',
    env: {
      PAGEWATCH_DATA_DIR: dataDir,
      PAGEWATCH_PORT: String(port),
      PAGEWATCH_HOST: '127.0.0.1',
      PAGEWATCH_LOG_LEVEL: 'warn',
      ...env,
    },
  });
}

/** Starts the server once on an empty database: fails early, and says whether the SPA is served. */
export async function preflight() {
  const port = await freePort();
  const server = spawnServer({ dataDir: tempDir('preflight'), port });
  await waitHealthy(port, server);
  const page = await request(port, '/');
  await stopChild(server);
  const spaServed = page.status === 200 && /html/.test(page.headers['content-type'] ?? '');
  if (!spaServed) console.warn('note: the server is not serving the web app (no web/dist build?)');
  return { spaServed };
}

/** Log lines at warn level or worse, except the first-run notice pointing to /setup. */
export function serverComplaints(child) {
  return child.logLines.filter((l) => {
    if (l.includes('No account exists yet')) return false;
    const level = /"level":(\d+)/.exec(l);
    return level ? Number(level[1]) >= 40 : true;
  });
}

/**
 * bench/lib/target.mjs in its own process (its CPU is not the server's): 200 "ok", no keep-alive.
 * `compact`: paths /m/<n>, hits kept as [n, ms] pairs and read with readArrivals().
 */
export async function startTarget({ compact = false } = {}) {
  const child = spawnNode([path.join(root, 'bench/lib/target.mjs')], {
    label: 'target',
    env: compact ? { BENCH_TARGET_COMPACT: '1' } : {},
  });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('target did not start')), 10_000);
    child.stdout.once('data', (chunk) => {
      clearTimeout(timer);
      resolve(JSON.parse(String(chunk).split('\n')[0]).port);
    });
    void child.exited.then(() => reject(new Error(`target exited: ${child.logLines.join('\n')}`)));
  });
  return { child, port, url: (p) => `http://127.0.0.1:${port}${p}` };
}

/**
 * A compact target's hits from the `from`-th on: { keys, times } (n of /m/<n>, epoch ms), in the
 * order they arrived.
 */
export async function readArrivals(target, from = 0) {
  const res = await request(target.port, `/__arrivals?from=${from}`);
  if (res.status !== 200) throw new Error(`/__arrivals → ${res.status}`);
  // Copied into an ArrayBuffer of its own: a Float64Array needs 8-byte alignment.
  const pairs = new Float64Array(new Uint8Array(res.body).buffer);
  const keys = new Int32Array(pairs.length / 2);
  const times = new Float64Array(pairs.length / 2);
  for (let i = 0; i < keys.length; i += 1) {
    keys[i] = pairs[2 * i];
    times[i] = pairs[2 * i + 1];
  }
  return { keys, times };
}

// ── HTTP ──

// The API needs sign-in: an owner API key per server port, made by ensureSignedIn().
const bearers = new Map();
const BENCH_OWNER = {
  email: 'bench@example.com',
  name: 'Bench owner',
  password: 'bench passphrase 0123',
};

/**
 * Creates the owner on a fresh server (setup from 127.0.0.1 needs no token) and an owner API
 * key that every later request to this port carries. A server on a seeded data dir reuses the key.
 */
export async function ensureSignedIn(port, reuseFrom) {
  if (reuseFrom !== undefined && bearers.has(reuseFrom)) bearers.set(port, bearers.get(reuseFrom));
  if (bearers.has(port)) return;
  const setup = await request(port, '/api/v1/auth/setup', { method: 'POST', body: BENCH_OWNER });
  if (setup.status !== 201) throw new Error(`setup → ${setup.status}: ${setup.body}`);
  const cookie = String([setup.headers['set-cookie']].flat()[0]).split(';')[0];
  const { csrfToken } = JSON.parse(String(setup.body));
  const key = await request(port, '/api/v1/api-keys', {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken },
    body: { name: 'bench', role: 'owner', expiresAt: null },
  });
  if (key.status !== 201) throw new Error(`api key → ${key.status}: ${key.body}`);
  bearers.set(port, `Bearer ${JSON.parse(String(key.body)).secret}`);
}

/** Carries the port's key to another port (the same data dir served again). */
export function shareSignIn(fromPort, toPort) {
  if (bearers.has(fromPort)) bearers.set(toPort, bearers.get(fromPort));
}

/** One request to 127.0.0.1; the body is read in full (and not decompressed). */
export function request(
  port,
  urlPath,
  { method = 'GET', headers: given = {}, body, agent, timeoutMs = 15_000 } = {},
) {
  const bearer = bearers.get(port);
  // An explicit `authorization: ''` means anonymous; a cookie means a session, not the key.
  const headers = { ...given };
  if (bearer && !('authorization' in given) && !given.cookie) headers.authorization = bearer;
  if (headers.authorization === '') delete headers.authorization;
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const t0 = now();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method,
        agent: agent ?? false,
        timeout: timeoutMs,
        headers: payload
          ? { 'content-type': 'application/json', 'content-length': payload.length, ...headers }
          : headers,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: now() - t0,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out: ${method} ${urlPath}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export async function getJson(port, urlPath) {
  const res = await request(port, urlPath);
  if (res.status !== 200) throw new Error(`GET ${urlPath} → ${res.status}: ${res.body}`);
  return JSON.parse(String(res.body));
}

/** Polls /healthz every `everyMs` until 200; resolves with performance.now() of that answer. */
// BENCH_HEALTHY_TIMEOUT_MS: a longer wait for the first /healthz on a machine loaded by others.
export async function waitHealthy(
  port,
  child,
  { everyMs = 5, timeoutMs = Number(process.env.BENCH_HEALTHY_TIMEOUT_MS ?? 30_000) } = {},
) {
  const deadline = now() + timeoutMs;
  while (now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited (${child.exitCode}):\n${child.logLines.join('\n')}`);
    }
    try {
      const res = await request(port, '/healthz');
      if (res.status === 200) return now();
    } catch {
      // not listening yet
    }
    await sleep(everyMs);
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${child.logLines.join('\n')}`);
}

/**
 * Creates `count` HTTP monitors through the API, a few at a time over keep-alive, optionally
 * paced. Resolves with the time taken, each request's latency and `ids[i]`, the id of monitor i.
 * `progressEvery`: logs the count and rate every that many monitors.
 */
export async function createMonitors(
  port,
  count,
  urlFor,
  { interval, timeout, parallel = 4, overMs = 0, progressEvery = 0 },
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: parallel });
  await ensureSignedIn(port);
  const latencies = [];
  const ids = new Array(count);
  let done = 0;
  let next = 0;
  const t0 = now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      // Paced creation spreads the monitors' phases (each is checked first when created).
      if (overMs > 0) await sleep(Math.max(0, t0 + (i * overMs) / count - now()));
      const body = {
        type: 'http',
        name: `bench ${String(i).padStart(4, '0')}`,
        url: urlFor(i),
        interval,
        timeout,
        retries: 1,
        paused: false,
      };
      const res = await request(port, '/api/v1/monitors', { method: 'POST', body, agent });
      if (res.status !== 201) throw new Error(`create monitor ${i} → ${res.status}: ${res.body}`);
      latencies.push(res.ms);
      ids[i] = JSON.parse(String(res.body)).id;
      done += 1;
      if (progressEvery > 0 && done % progressEvery === 0) {
        const s = (now() - t0) / 1000;
        console.log(`  ${done} created in ${s.toFixed(0)} s (${(done / s).toFixed(0)}/s)`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    agent.destroy();
  }
  return { ms: now() - t0, latencies, ids };
}
