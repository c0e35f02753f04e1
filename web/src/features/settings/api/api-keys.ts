import type { ApiKey, ApiKeyInput } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { settingsKeys } from './keys';

type KeyList = { items: ApiKey[] };

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: settingsKeys.apiKeys(),
    queryFn: ({ signal }) => api<KeyList>('/api-keys', { signal }),
  });

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiKeyInput) =>
      api<{ apiKey: ApiKey; secret: string }>('/api-keys', { method: 'POST', body: input }),
    onSuccess: ({ apiKey }) => {
      client.setQueryData<KeyList>(settingsKeys.apiKeys(), (list) =>
        list ? { items: [...list.items, apiKey] } : list,
      );
      void client.invalidateQueries({ queryKey: settingsKeys.apiKeys() });
      void client.invalidateQueries({ queryKey: settingsKeys.auditAll() });
    },
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api-keys/${id}`, { method: 'DELETE' }),
    onSuccess: (_void, id) => {
      client.setQueryData<KeyList>(settingsKeys.apiKeys(), (list) =>
        list ? { items: list.items.filter((k) => k.id !== id) } : list,
      );
      void client.invalidateQueries({ queryKey: settingsKeys.auditAll() });
    },
  });
}
