import type { UnannouncedIncidents } from '@pagewatch/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { statusPageKeys } from './keys';

/** Open incidents that published pages show with no public word yet (re-read every 30 s). */
export const unannouncedQuery = () =>
  queryOptions({
    queryKey: [...statusPageKeys.all, 'unannounced'] as const,
    queryFn: ({ signal }) => api<UnannouncedIncidents>('/status-pages/unannounced', { signal }),
    refetchInterval: 30_000,
  });
