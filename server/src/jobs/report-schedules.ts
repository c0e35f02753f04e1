import type { Logger } from '../lib/logger.js';
import type { ServiceDeps } from '../services/deps.js';
import { runReportSchedules } from '../services/reports/deliver.js';

/**
 * Monthly report emails (ADR 65): runs at once when this process takes the
 * `report-schedules` singleton (catching up on months that ended while no one held it), then
 * every minute. The schedules' state is in the database, so a restart loses nothing.
 */
export function startReportSchedules(
  deps: ServiceDeps,
  logger: Logger,
  pollMs = 60_000,
): { stop(): Promise<void>; tick(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (stopped) return Promise.resolve();
    running ??= runReportSchedules(deps)
      .then((r) => {
        if (r.sent + r.failed > 0) logger.info(r, 'reports: monthly emails');
      })
      .catch((err: unknown) => logger.warn({ err }, 'reports: monthly emails failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void tick(), pollMs);
  void tick();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
