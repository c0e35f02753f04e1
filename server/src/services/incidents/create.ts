import type { IncidentCreate, IncidentDetail } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { incidentEvent } from '../../domain/incidents.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { authorOf } from './author.js';
import { getIncident } from './get.js';
import { checkMonitorsExist } from './monitors.js';

/** Declares an incident by hand; its first update is the message given. */
export async function declareIncident(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: IncidentCreate,
): Promise<IncidentDetail> {
  await checkMonitorsExist(deps, input.monitorIds);
  const now = deps.clock.now();
  const incident = await deps.repos.incidents.insert(
    { ...input, author: authorOf(ctx) },
    now,
    deps.publicUrl ?? null,
  );
  await audit(
    deps,
    ctx,
    'incident.created',
    { type: 'incident', id: incident.id },
    `Declared ${input.severity} incident "${incident.title}"`,
  );
  deps.hub.publish(incidentEvent(incident, 'created', now));
  return getIncident(deps, incident.id);
}
