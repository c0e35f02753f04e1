import { ChannelCreateInput, type NotificationChannel } from '@pagewatch/contract';
import type { z } from 'zod';
import type { RequestContext } from '../../domain/actor.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { checkFallback } from './fallback.js';
import { checkReroute } from './quiet-hours.js';
import { presentChannel } from './present.js';
import { mergeSecrets, sealSecrets } from './secrets.js';

export type ChannelCreate = z.output<typeof ChannelCreateInput>;

export async function createChannel(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: ChannelCreate,
): Promise<NotificationChannel> {
  const secrets = mergeSecrets(input.kind, input.secrets, {});
  await checkFallback(deps, null, input.fallbackChannelId);
  await checkReroute(deps, null, input.quietHours);
  const channel = await deps.repos.notificationChannels.insert(
    {
      name: input.name,
      kind: input.kind,
      config: input.config as Record<string, unknown>,
      sealedSecrets: sealSecrets(secrets, deps.secrets),
      template: input.template,
      isDefault: input.isDefault,
      enabled: input.enabled,
      fallbackChannelId: input.fallbackChannelId,
      failThreshold: input.failThreshold,
      quietHours: input.quietHours,
    },
    deps.clock.now(),
  );
  await audit(
    deps,
    ctx,
    'notification_channel.created',
    { type: 'notification_channel', id: channel.id },
    `Created ${channel.kind} channel "${channel.name}"`,
  );
  return presentChannel(channel, deps.secrets);
}
