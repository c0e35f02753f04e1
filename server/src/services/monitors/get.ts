import type { MonitorRecord } from '../../domain/monitor.js';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

export async function getMonitor(deps: ServiceDeps, id: number): Promise<MonitorRecord> {
  const monitor = await deps.repos.monitors.findById(id);
  if (!monitor) throw notFound('Monitor');
  return monitor;
}

/** The channels a monitor alerts through. */
export const monitorChannelIds = (deps: ServiceDeps, id: number): Promise<number[]> =>
  deps.repos.notificationChannels.channelIdsOf(id);
