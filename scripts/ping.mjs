// Finds the system ping the ping check runs (ADR 43), installing Debian's iputils-ping as root
// when none exists, as scripts/chromium.mjs does for Chromium.
import { spawnSync } from 'node:child_process';

function pingPath() {
  const r = spawnSync('sh', ['-c', 'command -v ping'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The ping program's path, or null (with the reason printed) when there is none. */
export function ensurePing() {
  const found = pingPath();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log(
      "No ping program found: installing Debian's iputils-ping for the ping check tests.",
    );
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'iputils-ping'], { stdio: 'inherit', env });
    const installed = pingPath();
    if (installed) return installed;
  }
  console.log(
    'No ping program found and none could be installed: the ping check tests will fail. ' +
      'Install iputils-ping (as root: apt-get install iputils-ping).',
  );
  return null;
}
