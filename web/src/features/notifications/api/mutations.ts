import type {
  ChannelCreateInput,
  ChannelTestResult,
  Delivery,
  NotificationChannel,
} from '@pagewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { coverageKey } from './coverage';
import { notificationKeys } from './keys';

/** Saves a channel: created without an id, replaced with one. */
export function useSaveChannel(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    // The two inputs differ only in which secrets may be left out.
    mutationFn: (input: ChannelCreateInput) =>
      id === null
        ? api<NotificationChannel>('/notification-channels', { method: 'POST', body: input })
        : api<NotificationChannel>(`/notification-channels/${id}`, { method: 'PUT', body: input }),
    onSuccess: (channel) => {
      client.setQueryData(notificationKeys.channel(channel.id), channel);
      void client.invalidateQueries({ queryKey: notificationKeys.channels });
      // Enabling or disabling a channel changes which monitors alert nobody.
      void client.invalidateQueries({ queryKey: coverageKey });
    },
  });
}

export function useDeleteChannel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/notification-channels/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: notificationKeys.channels });
      void client.invalidateQueries({ queryKey: notificationKeys.deliveries });
      void client.invalidateQueries({ queryKey: coverageKey });
    },
  });
}

export function useTestChannel() {
  return useMutation({
    mutationFn: (id: number) =>
      api<ChannelTestResult>(`/notification-channels/${id}/test`, { method: 'POST' }),
  });
}

export function useRetryDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<Delivery>(`/deliveries/${id}/retry`, { method: 'POST' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: notificationKeys.deliveries }),
  });
}
