import type { Subscriber } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { statusPageKeys } from './keys';

export const subscribersQuery = (pageId: number) =>
  queryOptions({
    queryKey: [...statusPageKeys.detail(pageId), 'subscribers'] as const,
    queryFn: async ({ signal }) =>
      (await api<{ items: Subscriber[] }>(`/status-pages/${pageId}/subscribers`, { signal })).items,
  });

export function useRemoveSubscriber(pageId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api<void>(`/status-pages/${pageId}/subscribers/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: subscribersQuery(pageId).queryKey }),
  });
}
