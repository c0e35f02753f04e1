import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './until.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** One log line of a Pagewatch process (pino JSON), with the time the test read it. */
export interface LogLine {
  level: number;
  msg: string;
  time: number;
  [key: string]: unknown;
}

/** A whole Pagewatch (server/src/main.ts) as its own process, the way `npm start` runs it. */
export interface PagewatchProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly lines: LogLine[];
  /** Its base URL, once it listens (roles with `web`). */
  url(): string;
  /** Resolves with the exit code or signal once it ended. */
  readonly exited: Promise<number | string | null>;
  alive(): boolean;
  /** Waits for a log line matching `msg` (a substring) after index `from`. */
  waitForLog(msg: string, timeoutMs?: number, from?: number): Promise<LogLine>;
  /** SIGCONT then SIGKILL if still running: always safe in an afterAll. */
  destroy(): Promise<void>;
}

const started = new Set<PagewatchProcess>();
// A test runner that dies must not leave servers behind that keep checking.
process.once('exit', () => {
  for (const p of started) if (p.alive()) p.child.kill('SIGKILL');
});

/**
 * Starts server/src/main.ts through tsx as node's loader (so signals reach the server itself,
 * not a wrapper) with exactly the environment given plus PATH.
 */
export function startPagewatch(name: string, env: Record<string, string>): PagewatchProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@pagewatch/source', 'server/src/main.ts'],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PAGEWATCH_WEB_DIST: '',
        PAGEWATCH_HOST: '127.0.0.1',
        PAGEWATCH_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: LogLine[] = [];
  let rest = '';
  let url = '';
  child.stdout?.on('data', (d: Buffer) => {
    const parts = (rest + d.toString()).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.startsWith('{')) continue;
      try {
        const line = JSON.parse(part) as LogLine;
        lines.push(line);
        const served = /Pagewatch is serving (http:\/\/\S+)/.exec(line.msg ?? '');
        if (served) url = served[1]!;
      } catch {
        // not a log line
      }
    }
  });
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d.toString()}`));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const proc: PagewatchProcess = {
    name,
    child,
    lines,
    url: () => url,
    exited,
    alive,
    waitForLog: (msg, timeoutMs = 20_000, from = 0) =>
      until(
        `${name} to log "${msg}"`,
        () => lines.slice(from).find((l) => String(l.msg ?? '').includes(msg)),
        timeoutMs,
      ),
    destroy: async () => {
      if (alive()) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }
      await exited;
      started.delete(proc);
    },
  };
  started.add(proc);
  return proc;
}
