import type {
  ChannelBrief,
  ChannelList,
  DeliveryPage,
  NotificationChannel,
} from '@pagewatch/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { notificationKeys, type DeliveryFilter } from './keys';

/** Every channel; editors get briefs (id, name, kind, default, enabled) only. */
export const channelListQuery = () =>
  queryOptions({
    queryKey: notificationKeys.channels,
    queryFn: ({ signal }) => api<ChannelList>('/notification-channels', { signal }),
  });

export const isFullChannel = (c: ChannelBrief | NotificationChannel): c is NotificationChannel =>
  'config' in c;

export const channelQuery = (id: number) =>
  queryOptions({
    queryKey: notificationKeys.channel(id),
    queryFn: ({ signal }) => api<NotificationChannel>(`/notification-channels/${id}`, { signal }),
  });

/** Deliveries newest first; older pages through the `before` cursor. */
export const deliveryListQuery = (filter: DeliveryFilter, limit = 25) =>
  infiniteQueryOptions({
    queryKey: notificationKeys.deliveryList(filter),
    queryFn: ({ signal, pageParam }) => {
      const search = new URLSearchParams({ limit: String(limit) });
      for (const [k, v] of Object.entries({ ...filter, before: pageParam }))
        if (v !== undefined && v !== null) search.set(k, String(v));
      return api<DeliveryPage>(`/deliveries?${search.toString()}`, { signal });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
  });
