import type { IncidentDetail, IncidentUpdate } from '@pagewatch/contract';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

export async function getIncident(deps: ServiceDeps, id: number): Promise<IncidentDetail> {
  const incident = await deps.repos.incidents.detail(id);
  if (!incident) throw notFound('Incident');
  return incident;
}

export async function listIncidentUpdates(
  deps: ServiceDeps,
  id: number,
): Promise<IncidentUpdate[]> {
  if (!(await deps.repos.incidents.findById(id))) throw notFound('Incident');
  return deps.repos.incidents.updates(id);
}
