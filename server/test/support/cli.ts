import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI in this process, as `npx pagewatch <argv>` would, with its own environment. */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
  cwd = process.cwd(),
  stdin = '',
): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    env,
    cwd,
    stdin: async () => stdin,
  });
  return { code, out, err };
}

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/pagewatch.mjs');

/** Runs the real bin in a child process (what `npx pagewatch` starts), bounded in time. */
export function runCliProcess(
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 60_000,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...argv], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += String(c)));
    child.stderr.on('data', (c: Buffer) => (err += String(c)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, out, err });
    });
  });
}
