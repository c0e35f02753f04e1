import type { IncidentListFilter } from '@pagewatch/contract';

/** Query keys for incidents; every incident event invalidates the whole prefix. */
export const incidentKeys = {
  all: ['incidents'] as const,
  list: (state: IncidentListFilter) => ['incidents', 'list', state] as const,
  forMonitor: (monitorId: number) => ['incidents', 'monitor', monitorId] as const,
  detail: (id: number) => ['incidents', 'detail', id] as const,
};
