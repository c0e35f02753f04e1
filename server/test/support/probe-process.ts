import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/pagewatch.mjs');

export interface ProbeRun {
  child: ChildProcess;
  err: () => string;
  exited: Promise<number | null>;
}

/**
 * The real bin as `npx pagewatch probe` starts it, added to `running` so the test's afterAll
 * kills it whatever happened.
 */
export function startProbe(args: string[], running: ProbeRun[]): ProbeRun {
  const child = spawn(process.execPath, [bin, 'probe', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const run = { child, err: () => err, exited };
  running.push(run);
  return run;
}
