import type { MonitorInput } from '@pagewatch/contract';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { ServiceDeps } from '../deps.js';

export async function createMonitor(
  deps: ServiceDeps,
  input: MonitorInput,
): Promise<MonitorRecord> {
  const monitor = await deps.repos.monitors.insert(input, deps.clock.now());
  deps.hub.publish({ kind: 'monitor', change: 'created', monitorId: monitor.id });
  return monitor;
}
