import type { Logger } from '../lib/logger.js';
import type { ServiceDeps } from '../services/deps.js';
import { prepareReportMonths } from '../services/reports/warm.js';
import { periodicJob, type PeriodicJob } from '../lib/periodic-job.js';

export interface ReportMonthsTimings {
  /** After taking the lease: late enough to stay out of a start's way. */
  firstMs: number;
  /** Then: a month closes at a different hour in each zone. */
  everyMs: number;
}

const DEFAULTS: ReportMonthsTimings = { firstMs: 60_000, everyMs: 3 * 3_600_000 };

/**
 * Closed months kept ready for reports (ADR 75), once per deployment (`report-months`
 * singleton): a minute after this process takes the lease, then every few hours. What it
 * stores is derived and checked on every read, so a pass missed or run twice changes nothing
 * but the time the next report takes.
 */
export function startReportMonths(
  deps: ServiceDeps,
  logger: Logger,
  timings: Partial<ReportMonthsTimings> = {},
): PeriodicJob {
  const t = { ...DEFAULTS, ...timings };
  return periodicJob(
    async () => {
      const started = Date.now();
      const r = await prepareReportMonths(deps);
      if (r.merged > 0) {
        logger.info({ ...r, ms: Date.now() - started }, 'reports: closed months made ready');
      }
    },
    {
      firstMs: t.firstMs,
      everyMs: t.everyMs,
      onError: (err) => logger.warn({ err }, 'reports: making months ready failed'),
    },
  );
}
