import type { IncidentDetail, IncidentUpdateInput } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { applyStateChange, incidentEvent } from '../../domain/incidents.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { authorOf } from './author.js';
import { getIncident } from './get.js';

/** Adds an update to the timeline; its state moves the incident (resolving or reopening it). */
export async function postIncidentUpdate(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: IncidentUpdateInput,
): Promise<IncidentDetail> {
  const current = await deps.repos.incidents.findById(id);
  if (!current) throw notFound('Incident');
  const now = deps.clock.now();
  const lifecycle = applyStateChange(
    {
      state: current.state,
      resolvedAt: current.resolvedAt ? Date.parse(current.resolvedAt) : null,
    },
    input.state,
    now,
  );
  const resolves = current.state !== 'resolved' && lifecycle.state === 'resolved';
  const incident = await deps.repos.incidents.addUpdate(
    id,
    { ...input, author: authorOf(ctx) },
    lifecycle,
    now,
    resolves ? 'incident.resolved' : 'incident.updated',
    deps.publicUrl ?? null,
  );
  if (!incident) throw notFound('Incident');
  const resolved = current.state !== 'resolved' && incident.state === 'resolved';
  await audit(
    deps,
    ctx,
    resolved ? 'incident.resolved' : 'incident.updated',
    { type: 'incident', id },
    `${resolved ? 'Resolved' : 'Posted an update on'} incident "${incident.title}" (${incident.state})`,
  );
  deps.hub.publish(incidentEvent(incident, resolved ? 'resolved' : 'updated', now));
  return getIncident(deps, id);
}
