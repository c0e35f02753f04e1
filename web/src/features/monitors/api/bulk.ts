import type {
  Monitor,
  MonitorBulkInput,
  MonitorBulkResult,
  MonitorDraft,
} from '@pagewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { monitorKeys } from './keys';

/** One action on many monitors; every dashboard list and monitor page is read again after. */
export function useBulkMonitors() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MonitorBulkInput) =>
      api<MonitorBulkResult>('/monitors/bulk', { method: 'POST', body: input }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: monitorKeys.all });
    },
  });
}

/** Creates a copy of a monitor: secrets the form leaves out are copied on the server. */
export function useCloneMonitor(sourceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MonitorDraft) =>
      api<Monitor>(`/monitors/${sourceId}/clone`, { method: 'POST', body: input }),
    onSuccess: (monitor) => {
      client.setQueryData(monitorKeys.detail(monitor.id), monitor);
      void client.invalidateQueries({ queryKey: monitorKeys.list() });
      void client.invalidateQueries({ queryKey: monitorKeys.rowsAll });
      void client.invalidateQueries({ queryKey: monitorKeys.names() });
    },
  });
}
