import type { Logger } from '../lib/logger.js';
import type { ServiceDeps } from '../services/deps.js';
import { runDueBackup } from '../services/backup/scheduled.js';

/** How often the schedule is looked at; a backup is due at most this late. */
export const BACKUP_POLL_MS = 60_000;

/**
 * Scheduled backups, run by the process holding the `backups` singleton lease (ADR 21): looks
 * now and every minute whether one is due. Stopping waits for a backup being written.
 */
export function startScheduledBackups(
  deps: ServiceDeps,
  logger: Logger,
  pollMs = BACKUP_POLL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        if (await runDueBackup(deps)) logger.info('scheduled backup written');
      } catch (err) {
        logger.error({ err }, 'scheduled backup failed');
      }
    });
  };
  tick();
  const timer = setInterval(tick, pollMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
