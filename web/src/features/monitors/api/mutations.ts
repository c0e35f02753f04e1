import type { Monitor, MonitorDraft, MonitorList } from '@pagewatch/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { displayOf } from '../kinds/display';
import { monitorKeys } from './keys';

/** Writes a fresh monitor into the detail cache and patches its dashboard row. */
function storeMonitor(client: QueryClient, monitor: Monitor) {
  client.setQueryData(monitorKeys.detail(monitor.id), monitor);
  client.setQueryData<MonitorList>(monitorKeys.list(), (list) =>
    list
      ? {
          ...list,
          items: list.items.map((item) =>
            item.id === monitor.id
              ? {
                  ...item,
                  name: monitor.name,
                  target: displayOf(monitor).target(monitor),
                  interval: monitor.interval,
                  tags: monitor.tags,
                  paused: monitor.paused,
                  status: monitor.status,
                  statusChangedAt: monitor.statusChangedAt,
                }
              : item,
          ),
        }
      : list,
  );
  void client.invalidateQueries({ queryKey: monitorKeys.list() });
  void client.invalidateQueries({ queryKey: monitorKeys.rowsAll });
  void client.invalidateQueries({ queryKey: monitorKeys.names() });
}

export function useCreateMonitor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MonitorDraft) => api<Monitor>('/monitors', { method: 'POST', body: input }),
    onSuccess: (monitor) => storeMonitor(client, monitor),
  });
}

export function useUpdateMonitor(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MonitorDraft) =>
      api<Monitor>(`/monitors/${id}`, { method: 'PUT', body: input }),
    onSuccess: (monitor) => {
      storeMonitor(client, monitor);
      void client.invalidateQueries({ queryKey: monitorKeys.statsAll(id) });
    },
  });
}

export function useDeleteMonitor(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(`/monitors/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      client.setQueryData<MonitorList>(monitorKeys.list(), (list) =>
        list ? { ...list, items: list.items.filter((item) => item.id !== id) } : list,
      );
      client.removeQueries({ queryKey: monitorKeys.detail(id) });
      client.removeQueries({ queryKey: monitorKeys.checks(id) });
      client.removeQueries({ queryKey: monitorKeys.statsAll(id) });
      void client.invalidateQueries({ queryKey: monitorKeys.list() });
      void client.invalidateQueries({ queryKey: monitorKeys.rowsAll });
      void client.invalidateQueries({ queryKey: monitorKeys.names() });
    },
  });
}

export function usePauseMonitor(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (pause: boolean) =>
      api<Monitor>(`/monitors/${id}/${pause ? 'pause' : 'resume'}`, { method: 'POST' }),
    onSuccess: (monitor) => storeMonitor(client, monitor),
  });
}

export function useCheckNow(id: number) {
  return useMutation({
    mutationFn: () => api<void>(`/monitors/${id}/check-now`, { method: 'POST' }),
  });
}

/** A new push URL; the old one stops working at once. */
export function useRotatePushToken(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<Monitor>(`/monitors/${id}/push-token`, { method: 'POST' }),
    onSuccess: (monitor) => storeMonitor(client, monitor),
  });
}
