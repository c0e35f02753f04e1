import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts server/src/main.ts as its own process, the way `npm start` runs the built one. */
function startMain(env: Record<string, string>): Run {
  const child = spawn(tsx, ['--conditions=@pagewatch/source', 'server/src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PAGEWATCH_WEB_DIST: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(pred: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the server process', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('refuses bad configuration with exit code 2, naming the variable', async () => {
    const run = startMain({ PAGEWATCH_PORT: 'eighty', PAGEWATCH_LOG_LEVEL: 'loud' });
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain('PAGEWATCH_PORT="eighty" must be a number');
    expect(run.output()).toContain('PAGEWATCH_LOG_LEVEL="loud"');
  });

  it('serves, points to /setup with a one-time token while no account exists, and exits 0 on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-proc-'));
    dirs.push(dataDir);
    const run = startMain({
      PAGEWATCH_DATA_DIR: dataDir,
      PAGEWATCH_PORT: '0',
      PAGEWATCH_HOST: '127.0.0.1',
    });
    await waitFor(() => run.output().includes('No account exists yet'), 20_000);
    expect(run.output()).toMatch(/Pagewatch is serving http:\/\/127\.0\.0\.1:\d+/);
    expect(run.output()).toMatch(/open http:\/\/127\.0\.0\.1:\d+\/setup .* token: [0-9A-Za-z]{24}/);
    expect(fs.existsSync(path.join(dataDir, 'pagewatch.db'))).toBe(true);
    // The instance key is created once, readable by its owner only.
    expect(fs.statSync(path.join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('stopped cleanly');
  }, 60_000);
});
