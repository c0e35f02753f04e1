import type {
  MaintenanceInput,
  MaintenanceList,
  MaintenancePreview,
  MaintenancePreviewInput,
  MaintenanceWindow,
} from '@pagewatch/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { monitorKeys } from '../../monitors/api/keys';
import { maintenanceKeys } from './keys';

export const maintenanceListQuery = () =>
  queryOptions({
    queryKey: maintenanceKeys.list(),
    queryFn: ({ signal }) => api<MaintenanceList>('/maintenance', { signal }),
    // States move with the clock (scheduled → active → ended); a minute is close enough here.
    refetchInterval: 60_000,
  });

/** The next occurrences of the schedule being typed; null asks for nothing. */
export const maintenancePreviewQuery = (input: MaintenancePreviewInput | null) =>
  queryOptions({
    queryKey: maintenanceKeys.preview(input),
    queryFn: ({ signal }) =>
      api<MaintenancePreview>('/maintenance/preview', { method: 'POST', body: input, signal }),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 30_000,
  });

/** Saving a window changes monitors' statuses: their list and pages refetch too. */
function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: maintenanceKeys.all });
    void client.invalidateQueries({ queryKey: monitorKeys.all });
  };
}

export function useSaveWindow(id: number | null) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: MaintenanceInput) =>
      id === null
        ? api<MaintenanceWindow>('/maintenance', { method: 'POST', body: input })
        : api<MaintenanceWindow>(`/maintenance/${id}`, { method: 'PUT', body: input }),
    onSuccess: refresh,
  });
}

export function useCancelWindow() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) =>
      api<MaintenanceWindow>(`/maintenance/${id}/cancel`, { method: 'POST' }),
    onSuccess: refresh,
  });
}

export function useDeleteWindow() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/maintenance/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}
