import net from 'node:net';
import type { SubscribeInput } from '@pagewatch/contract';
import { bareHost, isAllowedAddress } from '../../notify/address-guard.js';
import { confirmNotice, noticeBaseUrl } from '../../domain/subscriber-notices.js';
import { randomBase62 } from '../../lib/crypto.js';
import { AppError, validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

export const pageNotFound = () => new AppError('not_found', 'There is no status page here');

/**
 * A visitor's webhook must not name this machine or a private address. Names are checked again
 * after resolution on every send (the notification egress guard); this refuses the obvious now.
 */
function privateHost(url: string): boolean {
  const host = bareHost(new URL(url).hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return net.isIP(host) !== 0 && !isAllowedAddress(host, true);
}

/**
 * A visitor subscribes to a published page. Email needs confirming through a link (double
 * opt-in); a webhook is confirmed at once. The reply never tells whether the address was
 * already subscribed, so the form can't be used to probe who follows a page.
 */
export async function subscribe(
  deps: ServiceDeps,
  slug: string,
  input: SubscribeInput,
  origin: string,
): Promise<void> {
  const page = await deps.repos.statusSubscribers.page(slug);
  if (!page || !page.published) throw pageNotFound();
  if (!page.subscriptions[input.kind]) {
    throw validationFailed(
      [
        {
          path: 'kind',
          code: 'unavailable',
          message: `This page does not offer ${input.kind} subscriptions`,
        },
      ],
      'This page does not take subscriptions of that kind',
    );
  }
  if (input.kind === 'webhook' && !deps.allowPrivateSubscriberWebhooks) {
    if (privateHost(input.address)) {
      throw validationFailed(
        [
          {
            path: 'address',
            code: 'private_address',
            message: 'Use a public address; private and local ones are refused',
          },
        ],
        'Webhooks must be reachable on the public internet',
      );
    }
  }
  const now = deps.clock.now();
  const baseUrl = noticeBaseUrl(page, deps.publicUrl, origin);
  const address = input.kind === 'email' ? input.address.toLowerCase() : input.address;
  const { subscriber, outcome } = await deps.repos.statusSubscribers.upsert({
    pageId: page.id,
    kind: input.kind,
    address,
    token: randomBase62(32),
    baseUrl,
    state: input.kind === 'email' ? 'pending' : 'confirmed',
    now,
  });
  // A pending address asking again gets the link again (the route rate-limits requests).
  if (input.kind === 'email' && outcome !== 'confirmed') {
    await deps.repos.statusSubscribers.enqueue(
      subscriber.id,
      confirmNotice(page, subscriber.baseUrl, now),
      now,
    );
  }
}
