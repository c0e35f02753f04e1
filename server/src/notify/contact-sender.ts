import type { AlertEvent } from '@pagewatch/contract';
import type { ContactMethodsRepository } from '../db/repositories/contact-methods.js';
import type { StoredChannel } from '../db/repositories/deliveries.js';
import type { SecretBox } from '../lib/crypto.js';
import { errorText } from './attempt.js';
import { ChannelError, type SendContext } from './channel.js';
import { channelRegistry } from './channels/registry.js';
import { contactTarget } from './contact-target.js';

export interface ContactSenderDeps {
  contactMethods: Pick<ContactMethodsRepository, 'forSend'>;
  secrets: SecretBox;
  /** The system mail channel (Settings → General), for people's mail addresses. */
  systemMail: () => Promise<StoredChannel | null>;
}

export type ContactSend = (
  contactMethodId: number,
  event: AlertEvent,
  ctx: SendContext,
) => Promise<void>;

/**
 * Delivers an alert to one person's contact method through the existing channel senders.
 * A removed, unverified or disabled person's method gets nothing: permanent failure.
 */
export function contactSender(deps: ContactSenderDeps): ContactSend {
  return async (id, event, ctx) => {
    const method = await deps.contactMethods.forSend(id);
    if (!method) throw new ChannelError('the contact method was removed', true);
    if (!method.verified) throw new ChannelError('the contact method is not verified', true);
    if (method.userDisabled) throw new ChannelError('the person is disabled', true);
    const systemMail = method.kind === 'email' ? await deps.systemMail() : null;
    const target = contactTarget(method, deps.secrets, systemMail);
    try {
      await channelRegistry[target.kind].send(target, event, ctx);
    } catch (err) {
      // The person's secrets (a Slack webhook URL, a bot token) never reach last_error.
      const permanent = err instanceof ChannelError && err.permanent;
      const after = err instanceof ChannelError ? err.retryAfterMs : null;
      throw new ChannelError(errorText(err, target.secrets), permanent, after);
    }
  };
}
