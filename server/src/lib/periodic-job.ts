/** A job that runs a pass now and then, one at a time, until stopped. */
export interface PeriodicJob {
  /**
   * Runs a pass now, or joins the one already running: passes read what is due from the
   * database, so the running one covers the request. Resolves when that pass has ended.
   */
  tick(): Promise<void>;
  /** No pass after this; resolves when the one in progress has ended. */
  stop(): Promise<void>;
}

export interface PeriodicOptions {
  /** Delay of the first pass: 0 runs it at once; left out, the interval's first is the first. */
  firstMs?: number;
  /** Then a pass every so often (counted from the start, not from the first pass). */
  everyMs: number;
  /** A pass's failure, for the job to log in its own words; the next pass runs as usual. */
  onError(err: unknown): void;
  /** Timers that do not keep the process alive (the process stops the job on shutdown). */
  unref?: boolean;
}

/**
 * The shape every background job shares (housekeeping, retention, backups, report emails,
 * report months, the offline-locations sweep, SLOs, escalation, alert groups): a pass at start
 * or soon after, then on an interval, never two at once, and a stop that waits for the pass in
 * progress so shutdown never cuts one off.
 * `pass` is given `stopped()`, which a long pass asks between steps to end early.
 */
export function periodicJob(
  pass: (stopped: () => boolean) => Promise<void>,
  o: PeriodicOptions,
): PeriodicJob {
  let stopped = false;
  let running: Promise<void> | null = null;
  const isStopped = () => stopped;
  const tick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= pass(isStopped)
      .catch((err: unknown) => o.onError(err))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const first = o.firstMs ? setTimeout(() => void tick(), o.firstMs) : null;
  const timer = setInterval(() => void tick(), o.everyMs);
  if (o.unref) {
    first?.unref();
    timer.unref();
  }
  if (o.firstMs === 0) void tick();
  return {
    tick,
    async stop() {
      stopped = true;
      if (first) clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
