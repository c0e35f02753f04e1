import type { MonitorRecord } from '../../domain/monitor.js';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** Pauses or resumes checking; idempotent. */
export async function setMonitorPaused(
  deps: ServiceDeps,
  id: number,
  paused: boolean,
): Promise<MonitorRecord> {
  const monitor = await deps.repos.monitors.setPaused(id, paused, deps.clock.now());
  if (!monitor) throw notFound('Monitor');
  deps.hub.publish({ kind: 'monitor', change: 'updated', monitorId: id });
  return monitor;
}
