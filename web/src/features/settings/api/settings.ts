import type {
  DeletedData,
  OwnershipTransfer,
  Settings,
  SettingsUpdate,
  StorageReport,
} from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { settingsKeys } from './keys';

export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.settings(),
    queryFn: ({ signal }) => api<Settings>('/settings', { signal }),
  });

export const storageQuery = () =>
  queryOptions({
    queryKey: settingsKeys.storage(),
    queryFn: ({ signal }) => api<StorageReport>('/settings/storage', { signal }),
  });

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (update: SettingsUpdate) =>
      api<Settings>('/settings', { method: 'PUT', body: update }),
    onSuccess: (settings) => {
      client.setQueryData(settingsKeys.settings(), settings);
      // The projection follows the retention.
      void client.invalidateQueries({ queryKey: settingsKeys.storage() });
      void client.invalidateQueries({ queryKey: settingsKeys.auditAll() });
    },
  });
}

export function useTransferOwnership() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: OwnershipTransfer) =>
      api<void>('/settings/transfer-ownership', { method: 'POST', body: input }),
    // Roles changed: who I am, the people list and what I may see.
    onSuccess: () => void client.invalidateQueries(),
  });
}

export function useDeleteAllData() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (confirm: string) =>
      api<DeletedData>('/settings/delete-all-data', { method: 'POST', body: { confirm } }),
    onSuccess: () => void client.invalidateQueries(),
  });
}
