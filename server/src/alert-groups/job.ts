import type { AlertGroupsRepository } from '../db/repositories/alert-groups.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { periodicJob, type PeriodicJob } from '../lib/periodic-job.js';
import type { OutboxSignal } from '../lib/outbox-signal.js';

export interface AlertGroupJobOptions {
  /** How often ended windows are looked for; a group's message is at most this late. */
  pollMs: number;
}

/**
 * The grouping timer (ADR 42): windows live in the database (`alert_batches.due_at`), so a
 * restart or a takeover loses none, and the job runs under the `alert-groups` singleton lease
 * (ADR 21); the compare-and-set in `flushDue` makes each batch one message even at a
 * hand-over.
 */
export function startAlertGroupJob(
  deps: { alertGroups: AlertGroupsRepository; outbox: OutboxSignal },
  clock: Clock,
  logger: Logger,
  options: AlertGroupJobOptions,
): PeriodicJob {
  return periodicJob(
    async () => {
      const queued = await deps.alertGroups.flushDue(clock.now());
      if (queued > 0) deps.outbox.notify();
    },
    {
      firstMs: 0,
      everyMs: options.pollMs,
      onError: (err) => logger.warn({ err }, 'alert groups: flushing ended windows failed'),
    },
  );
}
