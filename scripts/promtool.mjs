// Finds Prometheus's promtool for the /metrics test, fetching it from the system's package
// archive when none exists. The package itself is never installed (its scripts would start
// a Prometheus service): its .deb is downloaded and promtool alone is extracted to a cache.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, '.cache/promtool');
const cached = path.join(cacheDir, 'promtool');

function onPath() {
  const r = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' });
  const p = r.status === 0 ? r.stdout.trim() : '';
  return p && fs.existsSync(p) ? p : null;
}

function run(cmd, args, cwd) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  return spawnSync(cmd, args, { cwd, stdio: 'inherit' }).status === 0;
}

/** Downloads the `prometheus` .deb into a temp dir and keeps usr/bin/promtool from it. */
function download() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-promtool-'));
  try {
    // A fresh machine has no package lists yet; read them once, as ensureChromium does.
    if (!run('apt-get', ['download', '-qq', 'prometheus'], work)) {
      if (!run('apt-get', ['update', '-qq'], work)) return null;
      if (!run('apt-get', ['download', '-qq', 'prometheus'], work)) return null;
    }
    const deb = fs.readdirSync(work).find((f) => f.endsWith('.deb'));
    if (!deb) return null;
    const tree = path.join(work, 'tree');
    if (!run('dpkg-deb', ['-x', deb, tree], work)) return null;
    const binary = path.join(tree, 'usr/bin/promtool');
    if (!fs.existsSync(binary)) return null;
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.copyFileSync(binary, cached);
    fs.chmodSync(cached, 0o755);
    return cached;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Returns a promtool path: PAGEWATCH_PROMTOOL_PATH, PATH, the cache, or one fetched now. */
export function ensurePromtool() {
  const given = process.env.PAGEWATCH_PROMTOOL_PATH;
  if (given && fs.existsSync(given)) return given;
  const found = onPath() ?? (fs.existsSync(cached) ? cached : null);
  if (found) return found;
  let hasApt;
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
    execFileSync('dpkg-deb', ['--version'], { stdio: 'ignore' });
    hasApt = true;
  } catch {
    hasApt = false;
  }
  if (hasApt) {
    console.log("No promtool found: extracting it from Debian's prometheus package.");
    const fetched = download();
    if (fetched) return fetched;
  }
  throw new Error(
    'Could not find or fetch promtool; install Prometheus or set PAGEWATCH_PROMTOOL_PATH.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensurePromtool());
