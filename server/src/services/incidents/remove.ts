import type { RequestContext } from '../../domain/actor.js';
import { incidentEvent } from '../../domain/incidents.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

/** Deletes an incident and its timeline (e.g. one declared by mistake). */
export async function removeIncident(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const incident = await deps.repos.incidents.findById(id);
  if (!incident || !(await deps.repos.incidents.remove(id))) throw notFound('Incident');
  await audit(
    deps,
    ctx,
    'incident.deleted',
    { type: 'incident', id },
    `Deleted incident "${incident.title}"`,
  );
  deps.hub.publish(incidentEvent(incident, 'deleted', deps.clock.now()));
}
