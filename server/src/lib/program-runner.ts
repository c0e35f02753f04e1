import { spawn, type ChildProcess } from 'node:child_process';

/** How a program run ended: its exit code (null when killed by a signal) and its output. */
export interface ProgramExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ProgramOptions {
  env: Record<string, string>;
  /** Run as this user (tests of a machine that forbids what the program does). */
  runAs?: { uid: number; gid: number };
  /** Output kept per stream, in characters. */
  maxOutput: number;
  /** The program is killed (SIGKILL) this long after it started. */
  killAfterMs: number;
  /** Kills the program; the run still resolves with how it ended. */
  signal: AbortSignal;
}

/**
 * The helper's code, run with `node -e`: starts the programs it is asked to over its IPC
 * channel and answers with how each ended. Kept as a string so it needs no file of its own
 * next to the build or the test sources (as the SQLite checkpointer).
 */
const HELPER = String.raw`
const { spawn } = require('node:child_process');
const running = new Map();
process.on('message', (m) => {
  if (m.kill !== undefined) return void running.get(m.kill)?.kill('SIGKILL');
  let sent = false;
  const answer = (reply) => {
    if (sent) return;
    sent = true;
    running.delete(m.id);
    clearTimeout(timer);
    process.send({ id: m.id, ...reply });
  };
  let child;
  try {
    child = spawn(m.program, m.args, { stdio: ['ignore', 'pipe', 'pipe'], env: m.env, ...(m.runAs ?? {}) });
  } catch (err) {
    return void process.send({ id: m.id, error: { code: err.code ?? null, message: String(err.message) } });
  }
  running.set(m.id, child);
  const timer = setTimeout(() => child.kill('SIGKILL'), m.killAfterMs);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s) => { if (stdout.length < m.maxOutput) stdout += s; });
  child.stderr.setEncoding('utf8').on('data', (s) => { if (stderr.length < m.maxOutput) stderr += s; });
  child.on('error', (err) => answer({ error: { code: err.code ?? null, message: String(err.message) } }));
  child.on('close', (code) => answer({ code, stdout, stderr }));
});
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
`;

interface Pending {
  resolve: (exit: ProgramExit) => void;
  reject: (err: Error) => void;
}

interface Answer {
  id: number;
  code?: number | null;
  stdout?: string;
  stderr?: string;
  error?: { code: string | null; message: string };
}

/**
 * Runs short programs (the ping check's `ping`) from a small helper process instead of this
 * one. Starting a program forks the process that asks: in a scheduler holding thousands of
 * monitors that fork blocked the event loop for 25–80 ms each time, 800 pings a minute cost a
 * fifth of the loop, and the stalls fenced the worker (ADR 72). The helper forks with a heap of
 * a few megabytes and does nothing else; it starts on first use, and again after it died.
 */
export class ProgramRunner {
  private helper: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  /**
   * Runs `program` and resolves with how it ended. Rejects with the spawn error (its `code`:
   * ENOENT, EACCES…) when it could not start, or when the helper itself went away.
   */
  run(program: string, args: readonly string[], options: ProgramOptions): Promise<ProgramExit> {
    const helper = this.ensureHelper();
    const id = (this.nextId += 1);
    return new Promise<ProgramExit>((resolve, reject) => {
      const onAbort = (): void => void send(helper, { kill: id });
      options.signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => {
        options.signal.removeEventListener('abort', onAbort);
        if (this.pending.size === 0) helper.channel?.unref();
      };
      if (this.pending.size === 0) helper.channel?.ref();
      this.pending.set(id, {
        resolve: (exit) => {
          settle();
          resolve(exit);
        },
        reject: (err) => {
          settle();
          reject(err);
        },
      });
      send(helper, {
        id,
        program,
        args,
        env: options.env,
        runAs: options.runAs,
        maxOutput: options.maxOutput,
        killAfterMs: options.killAfterMs,
      });
      if (options.signal.aborted) onAbort();
    });
  }

  /** Stops the helper (its programs are killed); the next run starts another. */
  stop(): void {
    this.helper?.kill('SIGKILL');
  }

  private ensureHelper(): ChildProcess {
    if (this.helper) return this.helper;
    const helper = spawn(process.execPath, ['--max-old-space-size=32', '-e', HELPER], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      serialization: 'json',
    });
    this.helper = helper;
    helper.on('message', (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (answer.error) {
        waiting.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
      } else {
        waiting.resolve({
          code: answer.code ?? null,
          stdout: answer.stdout ?? '',
          stderr: answer.stderr ?? '',
        });
      }
    });
    const gone = (err?: Error): void => {
      if (this.helper !== helper) return;
      this.helper = null;
      const why = err ?? new Error('the helper process that runs programs exited');
      for (const waiting of this.pending.values()) waiting.reject(why);
      this.pending.clear();
    };
    helper.on('error', gone);
    helper.on('exit', () => gone());
    // Idle, it must not keep this process alive; while a run waits, its channel does.
    helper.unref();
    helper.channel?.unref();
    return helper;
  }
}

function send(helper: ChildProcess, message: object): void {
  if (helper.connected) helper.send(message, () => undefined);
}

/** The one runner of this process. */
export const programRunner = new ProgramRunner();
