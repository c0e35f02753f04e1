import type { ConfigKind, ConfigManagedList } from '@pagewatch/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const managedKey = ['config', 'managed'] as const;

export const configManagedQuery = () =>
  queryOptions({
    queryKey: managedKey,
    queryFn: ({ signal }) => api<ConfigManagedList>('/config/managed', { signal }),
  });

/** The key under which configuration files manage this resource, or null when the UI does. */
export function useManagedKey(kind: ConfigKind, id: number): string | null {
  const { data } = useQuery(configManagedQuery());
  return data?.[kind].find((r) => r.id === id)?.key ?? null;
}

export function useDetach() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: ConfigKind; id: number }) =>
      api<void>('/config/detach', { method: 'POST', body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: managedKey }),
  });
}
