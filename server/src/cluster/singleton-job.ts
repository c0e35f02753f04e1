import type { Logger } from '../lib/logger.js';
import type { SingletonLease } from './singletons.js';

/** A background job as the singleton runner sees it: started, and stopped with a wait. */
export interface Stoppable {
  stop(): Promise<void> | void;
}

export interface SingletonJob {
  /** Whether the job runs in this process right now. */
  running(): boolean;
  /** Stops the job (waiting for it) and stops following the lease. */
  stop(): Promise<void>;
}

/**
 * Runs a job only while this process holds the singleton lease: started on `acquired`,
 * stopped on `lost` (expiry, fence or release). Starts and stops are chained, so a job is
 * never started twice in one process; across processes the lease keeps it to one.
 */
export function runWhileHeld(
  lease: SingletonLease,
  start: () => Stoppable,
  logger: Logger,
): SingletonJob {
  let job: Stoppable | null = null;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  const stopJob = async () => {
    const current = job;
    job = null;
    if (current) await current.stop();
  };
  const onAcquired = () => {
    chain = chain.then(async () => {
      if (closed || job || !lease.held()) return;
      logger.info({ singleton: lease.name }, 'cluster: this process runs the singleton');
      job = start();
    });
  };
  const onLost = (reason: string) => {
    chain = chain.then(async () => {
      if (!job) return;
      logger.info({ singleton: lease.name, reason }, 'cluster: singleton lost; stopping its job');
      await stopJob();
    });
  };
  lease.on('acquired', onAcquired);
  lease.on('lost', onLost);
  // Held before this runner existed (started after the member's first tick).
  if (lease.held()) onAcquired();
  return {
    running: () => job !== null,
    stop: async () => {
      closed = true;
      lease.off('acquired', onAcquired);
      lease.off('lost', onLost);
      chain = chain.then(stopJob);
      await chain.catch((err: unknown) => logger.warn({ err }, 'a singleton job failed to stop'));
    },
  };
}
