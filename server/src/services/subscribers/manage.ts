import type { Subscriber } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

export async function listSubscribers(deps: ServiceDeps, pageId: number): Promise<Subscriber[]> {
  if (!(await deps.repos.statusSubscribers.pageById(pageId))) throw notFound('Status page');
  return deps.repos.statusSubscribers.list(pageId);
}

export async function removeSubscriber(
  deps: ServiceDeps,
  ctx: RequestContext,
  pageId: number,
  id: number,
): Promise<void> {
  if (!(await deps.repos.statusSubscribers.remove(pageId, id))) throw notFound('Subscriber');
  await audit(
    deps,
    ctx,
    'subscriber.removed',
    { type: 'status_page', id: pageId },
    `Removed subscriber ${id}`,
  );
}
