import { ChannelUpdateInput, type NotificationChannel } from '@pagewatch/contract';
import type { z } from 'zod';
import type { RequestContext } from '../../domain/actor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { findChannel } from './get.js';
import { checkFallback } from './fallback.js';
import { checkReroute } from './quiet-hours.js';
import { presentChannel } from './present.js';
import { mergeSecrets, openSecrets, sealSecrets, secretNames } from './secrets.js';

export type ChannelUpdate = z.output<typeof ChannelUpdateInput>;

/**
 * Replaces a channel's settings. Secrets left out keep their stored values while the kind
 * stays; a new kind keeps none, so all of its required secrets must be given.
 */
export async function updateChannel(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: ChannelUpdate,
): Promise<NotificationChannel> {
  const before = await findChannel(deps, id);
  await checkFallback(deps, id, input.fallbackChannelId);
  await checkReroute(deps, id, input.quietHours);
  const kept = before.kind === input.kind ? openSecrets(before, deps.secrets) : {};
  const given = input.secrets;
  const secrets = mergeSecrets(input.kind, given, kept);
  const channel = await deps.repos.notificationChannels.update(
    id,
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
  if (!channel) throw notFound('Notification channel');
  const replaced = secretNames(given);
  await audit(
    deps,
    ctx,
    'notification_channel.updated',
    { type: 'notification_channel', id },
    `Updated ${channel.kind} channel "${channel.name}"` +
      (replaced.length > 0 ? `; replaced secrets: ${replaced.join(', ')}` : ''),
  );
  return presentChannel(channel, deps.secrets);
}
