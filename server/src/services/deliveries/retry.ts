import type { Delivery } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { conflict, notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

/** Puts a failed or retrying delivery at the front of the queue (see deliveryLog.retryNow). */
export async function retryDelivery(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<Delivery> {
  const outcome = await deps.repos.deliveryLog.retryNow(id, deps.clock.now());
  if (outcome === 'not_found') throw notFound('Delivery');
  if (outcome === 'not_retryable')
    throw conflict('Only failed or retrying deliveries can be retried');
  if (outcome === 'leased') throw conflict('This delivery is being sent right now');
  await audit(deps, ctx, 'delivery.retried', { type: 'delivery', id }, `Retried delivery ${id}`);
  return (await deps.repos.deliveryLog.findById(id))!;
}
