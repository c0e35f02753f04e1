import type {
  AlertGrouping,
  HeldMonitors,
  MonitorDependencies,
  MonitorParentsInput,
} from '@pagewatch/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Under the monitors' prefix: any monitor change refreshes them too. */
export const dependencyKeys = {
  held: ['monitors', 'held'] as const,
  of: (id: number) => ['monitors', 'dependencies', id] as const,
};

/** Monitors down while a parent is down (ADR 41): "down, parent X down". */
export const heldQuery = () =>
  queryOptions({
    queryKey: dependencyKeys.held,
    queryFn: ({ signal }) => api<HeldMonitors>('/monitors/held', { signal }),
    staleTime: 10_000,
    refetchInterval: 30_000,
  });

export const dependenciesQuery = (id: number) =>
  queryOptions({
    queryKey: dependencyKeys.of(id),
    queryFn: ({ signal }) => api<MonitorDependencies>(`/monitors/${id}/parents`, { signal }),
  });

export const saveDependencies = (id: number, input: MonitorParentsInput) =>
  api<MonitorDependencies>(`/monitors/${id}/parents`, { method: 'PUT', body: input });

export type GroupingDraft = { tag: string; windowS: string };
export const groupingOf = (g: AlertGrouping | undefined | null): GroupingDraft => ({
  tag: g?.tag ?? '',
  windowS: String(g?.windowS ?? 120),
});
