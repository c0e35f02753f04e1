import type { MonitorLocations, MonitorLocationsInput } from '@pagewatch/contract';
import { MonitorLocationsInput as Input } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { monitorLocations } from './get.js';

/** Types checked where their results arrive or from other monitors: `local` only. */
const localOnly = new Set(['push', 'group']);

/**
 * Chooses where a monitor is checked and its quorum (ADR 58). Unknown locations, a quorum
 * above the number of locations, and remote locations for push and group monitors are
 * refused naming the field. The scheduler follows through the monitor's update event.
 */
export async function setMonitorLocations(
  deps: ServiceDeps,
  ctx: RequestContext,
  monitorId: number,
  input: MonitorLocationsInput,
): Promise<MonitorLocations> {
  const { locations: given, quorum } = Input.parse(input);
  const locations = [...new Set(given)].sort();
  const monitor = await deps.repos.monitors.findById(monitorId);
  if (!monitor) throw notFound('Monitor');
  const known = new Map((await deps.repos.monitorLocations.choices()).map((c) => [c.id, c.name]));
  const unknown = locations.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw validationFailed([
      { path: 'locations', message: `No location has id ${unknown.join(', ')}`, code: 'custom' },
    ]);
  }
  if (localOnly.has(monitor.type) && locations.some((id) => id !== 'local')) {
    throw validationFailed([
      {
        path: 'locations',
        message: `A ${monitor.type} monitor is decided on this server: local only`,
        code: 'custom',
      },
    ]);
  }
  if (quorum !== null && quorum > locations.length) {
    throw validationFailed([
      {
        path: 'quorum',
        message: `At most ${locations.length} (the locations chosen)`,
        code: 'too_big',
      },
    ]);
  }
  const last = monitor.lastCheck;
  const seed =
    last && locations.includes('local')
      ? { ...last, roundAt: monitor.lastRound?.roundDue ?? last.at }
      : null;
  await deps.repos.monitorLocations.set(monitorId, locations, quorum, seed);
  const names = locations.map((id) => `"${known.get(id)}"`).join(', ');
  const k = quorum === null ? 'a majority' : String(quorum);
  await audit(
    deps,
    ctx,
    'monitor.updated',
    { type: 'monitor', id: monitorId },
    `Updated "${monitor.name}": checked from ${names}, down when ${k} fail`,
  );
  // The scheduler reloads it: checks here start, stop or go through the quorum.
  deps.hub.publish({ kind: 'monitor', change: 'updated', monitorId });
  return monitorLocations(deps, monitorId);
}
