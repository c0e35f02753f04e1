import type { Logger } from '../lib/logger.js';
import type { ServiceDeps } from '../services/deps.js';
import { runReportSchedules } from '../services/reports/deliver.js';
import { periodicJob, type PeriodicJob } from '../lib/periodic-job.js';

/**
 * Monthly report emails (ADR 65): runs at once when this process takes the
 * `report-schedules` singleton (catching up on months that ended while no one held it), then
 * every minute. The schedules' state is in the database, so a restart loses nothing.
 */
export function startReportSchedules(
  deps: ServiceDeps,
  logger: Logger,
  pollMs = 60_000,
): PeriodicJob {
  return periodicJob(
    async () => {
      const r = await runReportSchedules(deps);
      if (r.sent + r.failed > 0) logger.info(r, 'reports: monthly emails');
    },
    {
      firstMs: 0,
      everyMs: pollMs,
      onError: (err) => logger.warn({ err }, 'reports: monthly emails failed'),
    },
  );
}
