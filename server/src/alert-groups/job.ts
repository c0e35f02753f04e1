import type { AlertGroupsRepository } from '../db/repositories/alert-groups.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
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
): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      const queued = await deps.alertGroups.flushDue(clock.now());
      if (queued > 0) deps.outbox.notify();
    })()
      .catch((err: unknown) => logger.warn({ err }, 'alert groups: flushing ended windows failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.pollMs);
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
