import type { RequestContext } from '../../domain/actor.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { PushTokenWrite } from '../../db/repositories/monitors.js';
import { randomBase62, sha256 } from '../../lib/crypto.js';
import { conflict, notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

/** 32 base62 characters (~190 bits): unguessable, and short enough for a crontab line. */
export function newPushToken(): PushTokenWrite {
  const token = randomBase62(32);
  return { token, hash: sha256(token) };
}

/** Replaces a push monitor's token: the old URL stops working at once. */
export async function rotatePushToken(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<MonitorRecord> {
  const before = await deps.repos.monitors.findById(id);
  if (!before) throw notFound('Monitor');
  if (before.type !== 'push') throw conflict('Only push monitors have a push URL');
  const monitor = await deps.repos.monitors.setPushToken(id, newPushToken(), deps.clock.now());
  if (!monitor) throw notFound('Monitor');
  await audit(
    deps,
    ctx,
    'monitor.push_token_rotated',
    { type: 'monitor', id },
    `Replaced the push URL of "${monitor.name}"`,
  );
  deps.hub.publish({ kind: 'monitor', change: 'updated', monitorId: id });
  return monitor;
}
