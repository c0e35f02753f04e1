import type { EscalationsRepository } from '../db/repositories/escalations.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { periodicJob, type PeriodicJob } from '../lib/periodic-job.js';
import type { OutboxSignal } from '../lib/outbox-signal.js';

export interface EscalationJobOptions {
  /** How often due steps are looked for; the lateness of a step is at most about this. */
  pollMs: number;
  /**
   * The clock that decides which steps are due, when it is not the process clock: tests
   * fast-forward it to reach a 10-minute step in a second. Rows are queued at process time.
   */
  dueClock?: Clock;
  /** Told how late each fired step was (bench and metrics). */
  onFired?: (lateMs: number) => void;
}

/**
 * The escalation timer (ADR 39): the due times live in the database, so a restart or a
 * takeover loses nothing, and it runs under the `escalations` singleton lease, so one process
 * fires steps at a time (the compare-and-set in fireStep guards the hand-over moments too).
 */
export function startEscalationJob(
  deps: { escalations: EscalationsRepository; outbox: OutboxSignal },
  clock: Clock,
  logger: Logger,
  options: EscalationJobOptions,
): PeriodicJob {
  return periodicJob(
    async () => {
      const now = clock.now();
      const fired = await deps.escalations.fireDue((options.dueClock ?? clock).now(), now);
      let queued = 0;
      for (const f of fired) {
        if (!f.fired) continue;
        queued += f.queued;
        options.onFired?.(f.lateMs);
      }
      if (queued > 0) deps.outbox.notify();
    },
    {
      firstMs: 0,
      everyMs: options.pollMs,
      onError: (err) => logger.warn({ err }, 'escalation: firing due steps failed'),
    },
  );
}
