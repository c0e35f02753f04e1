import type { MonitorBadges } from '@pagewatch/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { monitorKeys } from './keys';

/** Where the monitor's badges live; refetched on each visit, since pages change elsewhere. */
export const monitorBadgesQuery = (id: number) =>
  queryOptions({
    queryKey: [...monitorKeys.detail(id), 'badges'] as const,
    queryFn: ({ signal }) => api<MonitorBadges>(`/monitors/${id}/badges`, { signal }),
  });
