import type { StatsWindow } from '@pagewatch/contract';
import type { DashboardFilter } from '../dashboard-filter';

/** Query keys for monitors; prefixes allow invalidating one monitor's data at once. */
export const monitorKeys = {
  all: ['monitors'] as const,
  list: () => ['monitors', 'list'] as const,
  names: () => ['monitors', 'names'] as const,
  /** Every page set of the dashboard, whatever its filters. */
  rowsAll: ['monitors', 'rows'] as const,
  rows: (filter: DashboardFilter) => ['monitors', 'rows', filter] as const,
  detail: (id: number) => ['monitors', 'detail', id] as const,
  checks: (id: number) => ['monitors', 'checks', id] as const,
  browserRuns: (id: number) => ['monitors', 'browser-runs', id] as const,
  statsAll: (id: number) => ['monitors', 'stats', id] as const,
  stats: (id: number, window: StatsWindow) => ['monitors', 'stats', id, window] as const,
};
