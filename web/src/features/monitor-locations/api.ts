import type {
  LocationChoices,
  LocationLatency,
  MonitorLocations,
  MonitorLocationsInput,
} from '@pagewatch/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Under the monitors' prefix: any monitor change refreshes them too. */
export const locationKeys = {
  choices: ['monitors', 'location-choices'] as const,
  of: (id: number) => ['monitors', 'locations', id] as const,
  latency: (id: number) => ['monitors', 'locations', id, 'latency'] as const,
};

export const locationChoicesQuery = () =>
  queryOptions({
    queryKey: locationKeys.choices,
    queryFn: ({ signal }) => api<LocationChoices>('/monitors/location-choices', { signal }),
    staleTime: 60_000,
  });

export const monitorLocationsQuery = (id: number) =>
  queryOptions({
    queryKey: locationKeys.of(id),
    queryFn: ({ signal }) => api<MonitorLocations>(`/monitors/${id}/locations`, { signal }),
    refetchInterval: 15_000,
  });

export const locationLatencyQuery = (id: number) =>
  queryOptions({
    queryKey: locationKeys.latency(id),
    queryFn: ({ signal }) =>
      api<LocationLatency>(`/monitors/${id}/locations/latency?hours=6`, { signal }),
    refetchInterval: 60_000,
  });

export const saveLocations = (id: number, input: MonitorLocationsInput) =>
  api<MonitorLocations>(`/monitors/${id}/locations`, { method: 'PUT', body: input });
