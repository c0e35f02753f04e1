import type { Slo, SloInput, SloList } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const sloKeys = {
  all: ['slos'] as const,
  list: (monitorId: number | null) => ['slos', 'list', monitorId] as const,
};

/** Every SLO, or those a monitor is part of; figures move with each check, a minute is plenty. */
export const sloListQuery = (monitorId: number | null = null) =>
  queryOptions({
    queryKey: sloKeys.list(monitorId),
    queryFn: ({ signal }) =>
      api<SloList>(monitorId === null ? '/slos' : `/slos?monitorId=${monitorId}`, { signal }),
    refetchInterval: 60_000,
  });

export function useSaveSlo(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SloInput) =>
      id === null
        ? api<Slo>('/slos', { method: 'POST', body: input })
        : api<Slo>(`/slos/${id}`, { method: 'PUT', body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: sloKeys.all }),
  });
}

export function useDeleteSlo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/slos/${id}`, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: sloKeys.all }),
  });
}
