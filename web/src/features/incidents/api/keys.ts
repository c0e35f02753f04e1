import type { IncidentFilter } from './queries';

/** Query keys for incidents; every incident event invalidates the whole prefix. */
export const incidentKeys = {
  all: ['incidents'] as const,
  list: (filter: IncidentFilter) => ['incidents', 'list', filter] as const,
  forMonitor: (monitorId: number) => ['incidents', 'monitor', monitorId] as const,
  detail: (id: number) => ['incidents', 'detail', id] as const,
};
