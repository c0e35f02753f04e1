import type { IncidentListQuery, IncidentPage } from '@pagewatch/contract';
import type { ServiceDeps } from '../deps.js';

export async function listIncidents(
  deps: ServiceDeps,
  query: IncidentListQuery,
): Promise<IncidentPage> {
  return deps.repos.incidents.page(query);
}
