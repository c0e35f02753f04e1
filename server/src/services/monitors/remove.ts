import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

export async function removeMonitor(deps: ServiceDeps, id: number): Promise<void> {
  if (!(await deps.repos.monitors.remove(id))) throw notFound('Monitor');
  deps.hub.publish({ kind: 'monitor', change: 'deleted', monitorId: id });
}
