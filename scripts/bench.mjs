// `npm run bench`: every benchmark in bench/, one after another, each in its own process.
// `npm run bench -- cold-start dashboard` runs only those. Figures are printed and written
// to bench/results/<name>.json. Needs a build (`npm run build`) first.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benches = [
  'cold-start',
  'dashboard',
  'dashboard-100k',
  'scheduler-1k-10s',
  'scheduler-2k-10s',
  'scheduler-10k-60s',
  'scheduler-100k-workers',
  'auth',
  'passkey-verify',
  'oidc-signin',
  'history',
  'browser-checks',
  'alerts-1000-down',
  'alert-crash',
  'status-page',
  'lighthouse',
  'metrics-10k',
  'cluster-leases',
  'failover-kills',
  'result-writes',
  'location-ingest',
  'probe-throughput',
  'offline-detection',
  'kuma-import',
  'bulk-2k',
  'config-10k',
  'escalation',
  'slo-eval',
  'report-year',
  'alert-noise',
  'check-cost-net',
  'check-cost-db',
  'check-cost-mq',
  'check-cost-time',
];

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((name) => !benches.includes(name));
if (unknown.length > 0 || process.argv.includes('--help')) {
  console.error(`usage: npm run bench [-- ${benches.join(' | ')} …]`);
  if (unknown.length > 0) console.error(`unknown benchmark: ${unknown.join(', ')}`);
  process.exit(2);
}
if (!fs.existsSync(path.join(root, 'server/dist/main.js'))) {
  console.error('server/dist/main.js is missing: run `npm run build` first.');
  process.exit(2);
}

let current = null;
let interrupted = false;
// Terminal Ctrl-C reaches the benchmark too; a signal sent to us alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    current?.kill(signal);
  });
}

const failed = [];
for (const name of asked.length > 0 ? asked : benches) {
  if (interrupted) break;
  console.log(`\n══ ${name} ${'═'.repeat(Math.max(0, 70 - name.length))}`);
  const started = Date.now();
  current = spawn(process.execPath, [path.join(root, 'bench/cases', `${name}.mjs`)], {
    cwd: root,
    stdio: 'inherit',
  });
  const code = await new Promise((resolve) =>
    current.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
  );
  current = null;
  console.log(
    `── ${name}: ${code === 0 ? 'done' : interrupted ? 'interrupted' : `FAILED (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  if (code !== 0) failed.push(name);
}

if (interrupted) process.exit(130);
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
