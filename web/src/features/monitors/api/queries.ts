import type {
  BrowserRunList,
  CheckPage,
  Monitor,
  MonitorList,
  MonitorNames,
  MonitorStats,
  StatsWindow,
} from '@pagewatch/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { monitorKeys } from './keys';

const CHECKS_PAGE = 25;

export const monitorListQuery = () =>
  queryOptions({
    queryKey: monitorKeys.list(),
    queryFn: ({ signal }) => api<MonitorList>('/monitors', { signal }),
    // Statuses arrive live; the poll only refreshes slow-moving numbers such as 24 h uptime.
    refetchInterval: 60_000,
  });

/** Every monitor's id, name and target: what the pickers need, without the dashboard's data. */
export const monitorNamesQuery = () =>
  queryOptions({
    queryKey: monitorKeys.names(),
    queryFn: ({ signal }) => api<MonitorNames>('/monitors/names', { signal }),
  });

export const monitorQuery = (id: number) =>
  queryOptions({
    queryKey: monitorKeys.detail(id),
    queryFn: ({ signal }) => api<Monitor>(`/monitors/${id}`, { signal }),
  });

export const monitorStatsQuery = (id: number, window: StatsWindow) =>
  queryOptions({
    queryKey: monitorKeys.stats(id, window),
    queryFn: ({ signal }) =>
      api<MonitorStats>(`/monitors/${id}/stats?window=${window}`, { signal }),
    staleTime: window === '1h' ? 5_000 : 30_000,
    placeholderData: (previous) => previous,
  });

export const monitorChecksQuery = (id: number) =>
  infiniteQueryOptions({
    queryKey: monitorKeys.checks(id),
    queryFn: ({ signal, pageParam }) =>
      api<CheckPage>(
        `/monitors/${id}/checks?limit=${CHECKS_PAGE}${pageParam === null ? '' : `&before=${pageParam}`}`,
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const browserRunsQuery = (id: number) =>
  queryOptions({
    queryKey: monitorKeys.browserRuns(id),
    queryFn: ({ signal }) =>
      api<BrowserRunList>(`/monitors/${id}/browser-runs?limit=60`, { signal }),
  });
