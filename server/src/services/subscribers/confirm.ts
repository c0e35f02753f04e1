import type { ServiceDeps } from '../deps.js';
import type { SubscribablePage } from '../../db/repositories/status-subscribers.js';
import { pageNotFound } from './subscribe.js';

export interface TokenTarget {
  page: SubscribablePage;
  kind: 'email' | 'webhook';
  state: 'pending' | 'confirmed' | 'unsubscribed';
}

/** The subscription a link's token names, on the page named by the link. */
async function byToken(deps: ServiceDeps, slug: string, token: string) {
  const subscriber = /^[A-Za-z0-9]{16,64}$/.test(token)
    ? await deps.repos.statusSubscribers.byToken(token)
    : null;
  const page = subscriber ? await deps.repos.statusSubscribers.pageById(subscriber.pageId) : null;
  if (!subscriber || !page || page.slug !== slug) throw pageNotFound();
  return { subscriber, page };
}

/** What a confirm or unsubscribe link leads to, before the visitor presses the button. */
export async function describeToken(
  deps: ServiceDeps,
  slug: string,
  token: string,
): Promise<TokenTarget> {
  const { subscriber, page } = await byToken(deps, slug, token);
  return { page, kind: subscriber.kind, state: subscriber.state };
}

/** pending → confirmed. Confirming twice is harmless; an unsubscribed link stays unsubscribed. */
export async function confirmSubscription(
  deps: ServiceDeps,
  slug: string,
  token: string,
): Promise<TokenTarget> {
  const { subscriber, page } = await byToken(deps, slug, token);
  if (subscriber.state === 'pending') {
    await deps.repos.statusSubscribers.confirm(subscriber.id, deps.clock.now());
    return { page, kind: subscriber.kind, state: 'confirmed' };
  }
  return { page, kind: subscriber.kind, state: subscriber.state };
}

export async function unsubscribe(
  deps: ServiceDeps,
  slug: string,
  token: string,
): Promise<TokenTarget> {
  const { subscriber, page } = await byToken(deps, slug, token);
  if (subscriber.state !== 'unsubscribed') {
    await deps.repos.statusSubscribers.unsubscribe(subscriber.id, deps.clock.now());
  }
  return { page, kind: subscriber.kind, state: 'unsubscribed' };
}
