import type { NotificationChannel } from '@pagewatch/contract';
import type { ChannelRecord } from '../../db/repositories/notification-channels.js';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { presentChannel } from './present.js';

export async function findChannel(deps: ServiceDeps, id: number): Promise<ChannelRecord> {
  const channel = await deps.repos.notificationChannels.findById(id);
  if (!channel) throw notFound('Notification channel');
  return channel;
}

export async function getChannel(deps: ServiceDeps, id: number): Promise<NotificationChannel> {
  return presentChannel(await findChannel(deps, id), deps.secrets);
}
