import client from 'prom-client';
import type { ServiceDeps } from '../deps.js';

/**
 * The last backup on /metrics, read from the database at each scrape (any process shows the
 * run the singleton made): its time, size and duration, and the last failure's time.
 */
export function registerBackupMetrics(registry: client.Registry, deps: Pick<ServiceDeps, 'repos'>) {
  // One read serves the four gauges of a scrape.
  let cached: { at: number; value: ReturnType<typeof deps.repos.backup.last> } | null = null;
  const last = () => {
    const now = Date.now();
    if (!cached || now - cached.at > 1000) cached = { at: now, value: deps.repos.backup.last() };
    return cached.value;
  };
  new client.Gauge({
    name: 'pagewatch_backup_last_success_timestamp_seconds',
    help: 'When the last backup that succeeded started (0: none yet)',
    registers: [registry],
    async collect() {
      const { success } = await last();
      this.set(success ? success.at / 1000 : 0);
    },
  });
  new client.Gauge({
    name: 'pagewatch_backup_last_size_bytes',
    help: 'Size of the last backup file that succeeded',
    registers: [registry],
    async collect() {
      this.set((await last()).success?.bytes ?? 0);
    },
  });
  new client.Gauge({
    name: 'pagewatch_backup_last_duration_seconds',
    help: 'How long the last backup that succeeded took',
    registers: [registry],
    async collect() {
      this.set(((await last()).success?.durationMs ?? 0) / 1000);
    },
  });
  new client.Gauge({
    name: 'pagewatch_backup_last_failure_timestamp_seconds',
    help: 'When the last failed backup started (0: none)',
    registers: [registry],
    async collect() {
      const { failure } = await last();
      this.set(failure ? failure.at / 1000 : 0);
    },
  });
}
