// kuma-import: the Uptime Kuma 2.5.3 fixture (server/test/fixtures) imported into a fresh server,
// BENCH_RUNS (5) times, web role only (no checks run). Times the preview (dry run), the import
// and a second import (nothing new) as the client sees them. Bar (issue 15): import ≤ 2 s.
import fs from 'node:fs';
import { Buffer } from 'node:buffer';
import http from 'node:http';
import path from 'node:path';
import {
  freePort,
  now,
  request,
  root,
  runBench,
  spawnServer,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  ms,
  percentile,
  printEnvironment,
  printTable,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const NAME = 'kuma-import';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const FIXTURE = path.resolve(root, 'server/test/fixtures/uptime-kuma-2.5.3/kuma.db');
const BAR_MS = 2000;

/** The owner and an owner API key on a fresh server; returns the key's Authorization value. */
async function ownerKey(port) {
  const owner = { email: 'bench@example.com', name: 'Bench', password: 'bench-password-2026' };
  const setup = await request(port, '/api/v1/auth/setup', { method: 'POST', body: owner });
  if (setup.status !== 201) throw new Error(`setup → ${setup.status}: ${setup.body}`);
  const cookie = String([setup.headers['set-cookie']].flat()[0]).split(';')[0];
  const { csrfToken } = JSON.parse(String(setup.body));
  const key = await request(port, '/api/v1/api-keys', {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken },
    body: { name: 'bench', role: 'owner', expiresAt: null },
  });
  if (key.status !== 201) throw new Error(`api key → ${key.status}: ${key.body}`);
  return `Bearer ${JSON.parse(String(key.body)).secret}`;
}

/** POSTs the file as the raw body, as the CLI does; resolves with the time and the report. */
function upload(port, authorization, bytes, dryRun) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v1/import/uptime-kuma${dryRun ? '?dryRun=true' : ''}`,
        headers: {
          authorization,
          'content-type': 'application/octet-stream',
          'content-length': bytes.length,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) reject(new Error(`import → ${res.statusCode}: ${body}`));
          else resolve({ ms: now() - t0, report: JSON.parse(body) });
        });
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

await runBench(NAME, async () => {
  const env = printEnvironment();
  const bytes = fs.readFileSync(FIXTURE);
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const dataDir = tempDir('kuma-import');
    const port = await freePort();
    const child = spawnServer({ dataDir, port, env: { PAGEWATCH_ROLES: 'web' } });
    await waitHealthy(port, child);
    const key = await ownerKey(port);
    const preview = await upload(port, key, bytes, true);
    const first = await upload(port, key, bytes, false);
    const again = await upload(port, key, bytes, false);
    runs.push({
      preview: preview.ms,
      import: first.ms,
      again: again.ms,
      counts: first.report.counts,
    });
    await stopChild(child);
  }
  const col = (k) => runs.map((r) => r[k]);
  const rows = [['', 'p50', 'max']];
  for (const k of ['preview', 'import', 'again'])
    rows.push([k, ms(percentile(col(k), 50)), ms(Math.max(...col(k)))]);
  printTable(`Uptime Kuma fixture (${bytes.length} bytes), ${RUNS} fresh servers, SQLite`, rows);
  const worst = Math.max(...col('import'));
  console.log(`counts of the first import: ${JSON.stringify(runs[0].counts)}`);
  console.log(
    `target: import ≤ ${BAR_MS / 1000} s: ${verdict(worst <= BAR_MS)} (worst ${ms(worst)})`,
  );
  writeResult(NAME, { settings: { RUNS }, runs, met: worst <= BAR_MS }, env);
});
