import type { IncidentDetail, IncidentListFilter, IncidentPage } from '@pagewatch/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { incidentKeys } from './keys';

const PAGE = 25;

function listPath(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== null && v !== undefined) search.set(k, String(v));
  return `/incidents?${search.toString()}`;
}

/** What the incidents list asks the server for; dates are instants (ISO), start inclusive. */
export interface IncidentFilter {
  state: IncidentListFilter;
  q?: string | undefined;
  monitorId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** Open incidents first, then the rest newest first; older pages through the cursor. */
export const incidentListQuery = (filter: IncidentFilter) =>
  infiniteQueryOptions({
    queryKey: incidentKeys.list(filter),
    queryFn: ({ signal, pageParam }) =>
      api<IncidentPage>(listPath({ ...filter, limit: PAGE, cursor: pageParam }), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The incidents that name one monitor, for its page. */
export const monitorIncidentsQuery = (monitorId: number) =>
  infiniteQueryOptions({
    queryKey: incidentKeys.forMonitor(monitorId),
    queryFn: ({ signal, pageParam }) =>
      api<IncidentPage>(listPath({ monitorId, limit: 10, cursor: pageParam }), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const incidentQuery = (id: number) =>
  queryOptions({
    queryKey: incidentKeys.detail(id),
    queryFn: ({ signal }) => api<IncidentDetail>(`/incidents/${id}`, { signal }),
  });
