import type { ClusterOverview } from '@pagewatch/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { CLUSTER_REFRESH_MS } from '../cluster';
import { settingsKeys } from './keys';

/** Who is in the cluster and what each member holds, asked again every few seconds. */
export const clusterQuery = () =>
  queryOptions({
    queryKey: settingsKeys.cluster(),
    queryFn: ({ signal }) => api<ClusterOverview>('/cluster', { signal }),
    refetchInterval: CLUSTER_REFRESH_MS,
  });
