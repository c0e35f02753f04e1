import type { SubscribeInput } from '@pagewatch/contract';
import { hostRefusal, type Refusal } from '../../notify/address-guard.js';
import { confirmNotice, noticeBaseUrl } from '../../domain/subscriber-notices.js';
import { randomBase62 } from '../../lib/crypto.js';
import { AppError, validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

export const pageNotFound = () => new AppError('not_found', 'There is no status page here');

const REFUSED_BECAUSE: Record<Refusal['reason'], string> = {
  metadata: 'Use a public address; link-local and cloud metadata addresses are always refused',
  multicast: 'Use a public address; multicast and broadcast addresses are always refused',
  private: 'Use a public address; private and local ones are refused',
  invalid: 'Use a public address; private and local ones are refused',
};

/** The host a send would connect to, as WHATWG URL parsing normalises it (0x7f.1 → 127.0.0.1). */
function webhookHost(address: string): string {
  try {
    return new URL(address).hostname;
  } catch {
    throw validationFailed(
      [{ path: 'address', code: 'invalid_url', message: 'Enter an http:// or https:// URL' }],
      'The webhook address is not a URL',
    );
  }
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
  if (input.kind === 'webhook') {
    // The guard every send applies, resolving the name as a send would: what a send would
    // refuse is refused here, at the form. Each send still judges again (DNS may change).
    const refused = await hostRefusal(
      webhookHost(input.address),
      !deps.allowPrivateSubscriberWebhooks,
    );
    if (refused) {
      const message = REFUSED_BECAUSE[refused.reason];
      throw validationFailed(
        [{ path: 'address', code: 'private_address', message }],
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
