// Finds a Chromium for browser tests and browser checks, installing one when none exists.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const candidates = [
  process.env.PAGEWATCH_CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
].filter(Boolean);

export function findChromium() {
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

function run(cmd, args) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

/** Returns a Chromium path, installing Debian's package (as root) or Playwright's build otherwise. */
export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let hasApt;
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
    hasApt = true;
  } catch {
    hasApt = false;
  }
  if (isRoot && hasApt) {
    console.log("No Chromium found: installing Debian's chromium package for the browser tests.");
    if (run('apt-get', ['update', '-qq']) && run('apt-get', ['install', '-y', '-qq', 'chromium'])) {
      const installed = findChromium();
      if (installed) return installed;
    }
  }
  console.log("No Chromium found: installing one with Playwright's installer.");
  run('npx', ['playwright-core', 'install', 'chromium']);
  const out = spawnSync(
    'node',
    ['-e', "import('playwright-core').then(m => console.log(m.chromium.executablePath()))"],
    { encoding: 'utf8' },
  );
  const p = out.stdout.trim();
  if (p && fs.existsSync(p)) return p;
  throw new Error(
    'Could not find or install Chromium; set PAGEWATCH_CHROMIUM_PATH to a Chromium binary.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium());
