import type { RequestContext } from '../../domain/actor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

export async function removeMonitor(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const monitor = await deps.repos.monitors.findById(id);
  if (!monitor || !(await deps.repos.monitors.remove(id))) throw notFound('Monitor');
  await audit(
    deps,
    ctx,
    'monitor.deleted',
    { type: 'monitor', id },
    `Deleted "${monitor.name}" and its history`,
  );
  deps.hub.publish({ kind: 'monitor', change: 'deleted', monitorId: id });
}
