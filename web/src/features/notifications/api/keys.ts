import type { DeliveryState } from '@pagewatch/contract';

export interface DeliveryFilter {
  channelId?: number | undefined;
  monitorId?: number | undefined;
  state?: DeliveryState | undefined;
}

/** Query keys for channels and deliveries; a channel change invalidates both prefixes. */
export const notificationKeys = {
  channels: ['notification-channels'] as const,
  channel: (id: number) => ['notification-channels', id] as const,
  deliveries: ['deliveries'] as const,
  deliveryList: (f: DeliveryFilter) => ['deliveries', f] as const,
};
