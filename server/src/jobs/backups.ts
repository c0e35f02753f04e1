import type { Logger } from '../lib/logger.js';
import type { ServiceDeps } from '../services/deps.js';
import { runDueBackup } from '../services/backup/scheduled.js';
import { periodicJob } from '../lib/periodic-job.js';

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
  return periodicJob(
    async () => {
      if (await runDueBackup(deps)) logger.info('scheduled backup written');
    },
    {
      firstMs: 0,
      everyMs: pollMs,
      onError: (err) => logger.error({ err }, 'scheduled backup failed'),
      unref: true,
    },
  );
}
