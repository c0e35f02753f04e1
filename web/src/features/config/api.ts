import type {
  ConfigDriftEntry,
  ConfigDriftList,
  ConfigKind,
  ConfigManagedList,
} from '@pagewatch/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useCan } from '../auth/api/session';

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

const driftKey = ['config', 'drift'] as const;

/** Managed resources edited outside the files since the last apply (plan's drift). */
export const configDriftQuery = () =>
  queryOptions({
    queryKey: driftKey,
    queryFn: ({ signal }) => api<ConfigDriftList>('/config/drift', { signal }),
    // Computed over the whole configuration: read when a screen opens, not on every event.
    staleTime: 30_000,
  });

/**
 * The drift of one managed resource, or null when it is as the last apply left it. Admins
 * only (as plans are): for others it is always null.
 */
export function useDrift(kind: ConfigKind, key: string | null): ConfigDriftEntry | null {
  const isAdmin = useCan('admin');
  const { data } = useQuery({ ...configDriftQuery(), enabled: key !== null && isAdmin });
  return data?.drift.find((d) => d.kind === kind && d.key === key) ?? null;
}

export function useDetach() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: ConfigKind; id: number }) =>
      api<void>('/config/detach', { method: 'POST', body: input }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: managedKey });
      void client.invalidateQueries({ queryKey: driftKey });
    },
  });
}
