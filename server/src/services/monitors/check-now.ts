import { conflict, unavailable } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { getMonitor } from './get.js';

export async function checkMonitorNow(deps: ServiceDeps, id: number): Promise<void> {
  const monitor = await getMonitor(deps, id);
  if (monitor.paused) throw conflict('The monitor is paused; resume it to check it');
  if (monitor.type === 'push')
    throw conflict('A push monitor is checked by the pings its job sends; there is nothing to run');
  if (!deps.trigger) throw unavailable('No scheduler runs in this process (PAGEWATCH_ROLES)');
  if (!deps.trigger.checkNow(id))
    throw unavailable('The scheduler has not picked this monitor up yet; try again');
}
