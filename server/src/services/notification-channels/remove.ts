import type { RequestContext } from '../../domain/actor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { findChannel } from './get.js';

/** Deletes a channel; monitors stop alerting through it and its pending alerts are dropped. */
export async function removeChannel(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const channel = await findChannel(deps, id);
  if (!(await deps.repos.notificationChannels.remove(id))) throw notFound('Notification channel');
  await audit(
    deps,
    ctx,
    'notification_channel.deleted',
    { type: 'notification_channel', id },
    `Deleted ${channel.kind} channel "${channel.name}"`,
  );
}
