import type { ChannelBrief, NotificationChannel } from '@pagewatch/contract';
import type { ChannelRecord } from '../../db/repositories/notification-channels.js';
import type { SecretBox } from '../../lib/crypto.js';
import { openSecrets, secretNames } from './secrets.js';

/** A channel as owners and admins see it: settings, and which secrets are set. */
export function presentChannel(c: ChannelRecord, box: SecretBox): NotificationChannel {
  return {
    id: c.id,
    name: c.name,
    kind: c.kind,
    isDefault: c.isDefault,
    enabled: c.enabled,
    template: c.template,
    config: c.config,
    secretsSet: secretNames(openSecrets(c, box)),
    monitorCount: c.monitorCount,
    fallbackChannelId: c.fallbackChannelId,
    failThreshold: c.failThreshold,
    quietHours: c.quietHours,
    health: {
      consecutiveFailures: c.consecutiveFailures,
      failing: c.consecutiveFailures >= c.failThreshold,
      lastError: c.lastError,
    },
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

export const briefChannel = (c: ChannelRecord): ChannelBrief => ({
  id: c.id,
  name: c.name,
  kind: c.kind,
  isDefault: c.isDefault,
  enabled: c.enabled,
});
