import type { MonitorRowPage } from '@pagewatch/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The tags in use, as the dashboard's filter menu lists them (one row asked, tags come along). */
export const tagsInUseQuery = () =>
  queryOptions({
    queryKey: ['monitors', 'tags-in-use'] as const,
    queryFn: ({ signal }) =>
      api<MonitorRowPage>('/monitors/rows?limit=1', { signal }).then((p) => p.tags),
  });
