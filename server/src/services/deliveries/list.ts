import { atLeast, type DeliveryPage, type DeliveryQuery } from '@pagewatch/contract';
import { actorRole, type RequestContext } from '../../domain/actor.js';
import { forbidden } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/**
 * The delivery log, newest first. Owners and admins read all of it; editors read one
 * monitor's alerts (its page shows them), never a channel's whole history.
 */
export async function listDeliveries(
  deps: ServiceDeps,
  ctx: RequestContext,
  query: DeliveryQuery,
): Promise<DeliveryPage> {
  const role = actorRole(ctx.actor);
  const admin = role !== null && atLeast(role, 'admin');
  if (!admin && query.monitorId === undefined)
    throw forbidden('Editors see deliveries of one monitor at a time: add monitorId');
  return deps.repos.deliveryLog.page(query);
}
