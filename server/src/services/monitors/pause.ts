import type { RequestContext } from '../../domain/actor.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

/** Pauses or resumes checking; idempotent. */
export async function setMonitorPaused(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  paused: boolean,
): Promise<MonitorRecord> {
  const monitor = await deps.repos.monitors.setPaused(id, paused, deps.clock.now());
  if (!monitor) throw notFound('Monitor');
  await audit(
    deps,
    ctx,
    paused ? 'monitor.paused' : 'monitor.resumed',
    { type: 'monitor', id },
    `${paused ? 'Paused' : 'Resumed'} "${monitor.name}"`,
  );
  deps.hub.publish({ kind: 'monitor', change: 'updated', monitorId: id });
  return monitor;
}
