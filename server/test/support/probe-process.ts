import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './app.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/pagewatch.mjs');

export interface ProbeRun {
  child: ChildProcess;
  err: () => string;
  exited: Promise<number | null>;
  /**
   * Signals the process that runs the probe. From the sources the bin is a wrapper that starts
   * node with tsx as a child, so a SIGSTOP to `child` would freeze only the wrapper.
   */
  signal: (signal: NodeJS.Signals) => void;
}

/** The children of `pid` (Linux /proc), none when unknown. */
function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * The real bin as `npx pagewatch probe` starts it, added to `running` so the test's afterAll
 * kills it whatever happened.
 */
export function startProbe(
  args: string[],
  running: ProbeRun[],
  options: { wrap?: string[] } = {},
): ProbeRun {
  // `wrap` runs it under another command, e.g. `ip netns exec <ns>` (which execs, same pid).
  const [command, ...prefix] = [...(options.wrap ?? []), process.execPath];
  const child = spawn(command, [...prefix, bin, 'probe', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const signal = (sig: NodeJS.Signals) => {
    const pid = child.pid;
    if (pid === undefined || child.exitCode !== null) return;
    const inner = childrenOf(pid);
    for (const p of inner.length > 0 ? inner : [pid]) process.kill(p, sig);
  };
  const run = { child, err: () => err, exited, signal };
  running.push(run);
  return run;
}

/**
 * A remote location with one probe, created through the API as an admin would: its id, the
 * probe's id and the token shown once for `pagewatch probe --token`.
 */
export async function addProbeLocation(
  app: Pick<TestApp, 'inject'>,
  name: string,
  probeName: string,
): Promise<{ locationId: string; probeId: number; token: string }> {
  const loc = await app.inject({ method: 'POST', url: '/api/v1/locations', payload: { name } });
  const locationId = loc.json<{ id: string }>().id;
  const created = await app.inject({
    method: 'POST',
    url: `/api/v1/locations/${locationId}/probes`,
    payload: { name: probeName },
  });
  const made = created.json<{ token: string; probe: { id: number } }>();
  return { locationId, probeId: made.probe.id, token: made.token };
}
