// Finds a system program some tests run, installing its Debian package as root when it is
// missing, as scripts/chromium.mjs does for Chromium: the system `ping` the ping check runs
// (ADR 43), and poppler's `pdftotext` that reads report PDFs back (ADR 55).
import { spawnSync } from 'node:child_process';

function pathOf(program) {
  const r = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The program's path, or null (with the reason printed) when there is none. */
export function ensureProgram(program, debianPackage, purpose) {
  const found = pathOf(program);
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log(`No ${program} found: installing Debian's ${debianPackage} for ${purpose}.`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', debianPackage], { stdio: 'inherit', env });
    const installed = pathOf(program);
    if (installed) return installed;
  }
  console.log(
    `No ${program} found and none could be installed: ${purpose} will fail. ` +
      `Install ${debianPackage} (as root: apt-get install ${debianPackage}).`,
  );
  return null;
}
