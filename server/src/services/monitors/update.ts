import type { MonitorInput } from '@pagewatch/contract';
import { splitInput, type MonitorRecord } from '../../domain/monitor.js';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** Replaces a monitor's definition; pointing it elsewhere starts its status over. */
export async function updateMonitor(
  deps: ServiceDeps,
  id: number,
  input: MonitorInput,
): Promise<MonitorRecord> {
  const before = await deps.repos.monitors.findById(id);
  if (!before) throw notFound('Monitor');
  const { settings } = splitInput(input);
  const retargeted =
    before.type !== input.type || JSON.stringify(before.settings) !== JSON.stringify(settings);
  const monitor = await deps.repos.monitors.replace(id, input, deps.clock.now(), retargeted);
  if (!monitor) throw notFound('Monitor');
  deps.hub.publish({ kind: 'monitor', change: 'updated', monitorId: id });
  return monitor;
}
