import type { StatsWindow } from '@pagewatch/contract';

/** Query keys for monitors; prefixes allow invalidating one monitor's data at once. */
export const monitorKeys = {
  all: ['monitors'] as const,
  list: () => ['monitors', 'list'] as const,
  detail: (id: number) => ['monitors', 'detail', id] as const,
  checks: (id: number) => ['monitors', 'checks', id] as const,
  browserRuns: (id: number) => ['monitors', 'browser-runs', id] as const,
  statsAll: (id: number) => ['monitors', 'stats', id] as const,
  stats: (id: number, window: StatsWindow) => ['monitors', 'stats', id, window] as const,
};
