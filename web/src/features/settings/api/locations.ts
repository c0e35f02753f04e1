import type { LocationInput, LocationView, ProbeTokenCreated } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Probes' heartbeats come every 5 s: the screen asks again as often. */
export const LOCATIONS_REFRESH_MS = 5000;
const key = ['locations'] as const;

export const locationsQuery = () =>
  queryOptions({
    queryKey: key,
    queryFn: ({ signal }) =>
      api<{ items: LocationView[] }>('/locations', { signal }).then((r) => r.items),
    refetchInterval: LOCATIONS_REFRESH_MS,
  });

/** Every change to locations and probes, each refreshing the list once it is done. */
export function useLocationActions() {
  const client = useQueryClient();
  const done = () => void client.invalidateQueries({ queryKey: key });
  return {
    add: useMutation({
      mutationFn: (body: LocationInput) =>
        api<LocationView>('/locations', { method: 'POST', body }),
      onSuccess: done,
    }),
    rename: useMutation({
      mutationFn: ({ id, body }: { id: string; body: LocationInput }) =>
        api<LocationView>(`/locations/${encodeURIComponent(id)}`, { method: 'PUT', body }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        api<void>(`/locations/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: done,
    }),
    addProbe: useMutation({
      mutationFn: ({ id, name }: { id: string; name: string }) =>
        api<ProbeTokenCreated>(`/locations/${encodeURIComponent(id)}/probes`, {
          method: 'POST',
          body: { name },
        }),
      onSuccess: done,
    }),
    rotate: useMutation({
      mutationFn: (id: number) =>
        api<ProbeTokenCreated>(`/probes/${id}/rotate`, { method: 'POST', body: {} }),
      onSuccess: done,
    }),
    revoke: useMutation({
      mutationFn: (id: number) => api<void>(`/probes/${id}`, { method: 'DELETE' }),
      onSuccess: done,
    }),
  };
}
