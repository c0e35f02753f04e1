import type { IncidentDetail, IncidentEdit } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { incidentEvent } from '../../domain/incidents.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { getIncident } from './get.js';
import { checkMonitorsExist } from './monitors.js';

/** Changes an incident's title, severity or affected monitors. */
export async function editIncident(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  changes: IncidentEdit,
): Promise<IncidentDetail> {
  if (changes.monitorIds) await checkMonitorsExist(deps, changes.monitorIds);
  const now = deps.clock.now();
  const incident = await deps.repos.incidents.edit(id, changes, now);
  if (!incident) throw notFound('Incident');
  await audit(
    deps,
    ctx,
    'incident.edited',
    { type: 'incident', id },
    `Edited incident "${incident.title}" (${Object.keys(changes).join(', ')})`,
  );
  deps.hub.publish(incidentEvent(incident, 'updated', now));
  return getIncident(deps, id);
}
