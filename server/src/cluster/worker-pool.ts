import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { WorkerLinks } from '../lib/ipc-bridge.js';
import type { Logger } from '../lib/logger.js';

export interface WorkerPoolOptions {
  /** Workers to fork (the primary itself is not counted). */
  count: number;
  /** The server's entry file and the node flags it was started with (a loader, conditions). */
  script: string;
  execArgv: readonly string[];
  /** The environment every worker starts with; each also gets PAGEWATCH_WORKER_INDEX. */
  env: NodeJS.ProcessEnv;
  links: WorkerLinks;
  logger: Logger;
  /** A worker that died is started again after this, doubling up to `maxRestartMs`. */
  restartMs?: number;
  maxRestartMs?: number;
}

/**
 * The scheduler workers of one machine (PAGEWATCH_WORKERS, ADR 25): each is a whole Pagewatch
 * process with the scheduler role only, a cluster member that shares the partitions like any
 * other. One that dies is started again with a growing delay; until then the others take its
 * partitions over when its leases expire.
 */
export class WorkerPool {
  private readonly workers = new Map<number, ChildProcess>();
  private readonly restarts = new Map<number, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopping = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Process ids of the workers running now (tests and Settings → Cluster). */
  pids(): number[] {
    return [...this.workers.values()].flatMap((w) => (w.pid ? [w.pid] : []));
  }

  start(): void {
    for (let index = 1; index <= this.options.count; index++) this.spawn(index);
  }

  /** Asks every worker to stop (they finish their checks and release their leases), then waits. */
  async stop(timeoutMs = 30_000): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    const running = [...this.workers.values()].filter((w) => w.exitCode === null);
    await Promise.all(
      running.map(async (worker) => {
        const exited = once(worker, 'exit');
        worker.kill('SIGTERM');
        const timer = setTimeout(() => worker.kill('SIGKILL'), timeoutMs);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  private spawn(index: number): void {
    const { logger } = this.options;
    const worker = fork(this.options.script, [], {
      execArgv: [...this.options.execArgv],
      env: { ...this.options.env, PAGEWATCH_WORKER_INDEX: String(index) },
      stdio: 'inherit',
      // Structured clone, not JSON: a browser check's screenshot (bytes) crosses in results.
      serialization: 'advanced',
    });
    const startedAt = Date.now();
    this.workers.set(index, worker);
    this.options.links.add(worker);
    worker.on('error', (err) => logger.warn({ err, worker: index }, 'scheduler worker error'));
    logger.info({ worker: index, pid: worker.pid }, 'started a scheduler worker');
    worker.once('exit', (code, signal) => {
      if (this.workers.get(index) === worker) this.workers.delete(index);
      if (this.stopping) return;
      // A worker that ran for a minute was healthy: its next restart starts from the base delay.
      const base = this.options.restartMs ?? 1_000;
      const previous = Date.now() - startedAt > 60_000 ? 0 : (this.restarts.get(index) ?? 0);
      const delay =
        previous === 0 ? base : Math.min(previous * 2, this.options.maxRestartMs ?? 30_000);
      this.restarts.set(index, delay);
      logger.error(
        { worker: index, pid: worker.pid, code, signal, restartInMs: delay },
        'a scheduler worker exited; starting it again',
      );
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (!this.stopping) this.spawn(index);
      }, delay);
      this.timers.add(timer);
    });
  }
}
