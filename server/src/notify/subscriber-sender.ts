import { channelSchemas, SubscriberNotice } from '@pagewatch/contract';
import type { Repositories } from '../db/repositories/index.js';
import type { SecretBox } from '../lib/crypto.js';
import { subscriberWebhookEgress } from './address-guard.js';
import { ChannelError, type SendContext } from './channel.js';
import { sendMail } from './channels/email/index.js';
import { postJson } from './outbound.js';
import { subscriberMessage } from './subscriber-message.js';

export interface SubscriberSenderDeps {
  repos: Repositories;
  secrets: SecretBox;
  /** PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS: visitors typed these URLs, so off by default. */
  allowPrivateWebhooks: boolean;
}

export type SubscriberSend = (
  subscriberId: number,
  payload: string,
  ctx: SendContext,
) => Promise<void>;

/**
 * Delivers a status-page notice to one subscriber: mail through the page's email channel, or a
 * JSON POST to their webhook. A subscriber who left (or was removed) gets nothing: permanent.
 */
export function subscriberSender(deps: SubscriberSenderDeps): SubscriberSend {
  const { repos } = deps;
  return async (subscriberId, payload, ctx) => {
    const subscriber = await repos.statusSubscribers.byId(subscriberId);
    if (!subscriber) throw new ChannelError('the subscriber was removed', true);
    const notice = SubscriberNotice.parse(JSON.parse(payload));
    const wanted = notice.kind === 'confirm' ? 'pending' : 'confirmed';
    if (subscriber.state !== wanted && subscriber.state !== 'confirmed') {
      throw new ChannelError(`not sent: the subscriber is ${subscriber.state}`, true);
    }
    const message = subscriberMessage(notice, subscriber.token);
    if (subscriber.kind === 'webhook') {
      await postJson(
        subscriber.address,
        message.json,
        { ...ctx, egress: subscriberWebhookEgress(deps.allowPrivateWebhooks) },
        { 'X-Pagewatch-Delivery': String(ctx.deliveryId) },
      );
      return;
    }
    const page = await repos.statusSubscribers.pageById(subscriber.pageId);
    const channelId = page?.subscriptions.emailChannelId ?? null;
    const mailer = channelId === null ? null : await repos.statusSubscribers.mailer(channelId);
    if (!mailer) {
      throw new ChannelError('the page has no enabled email channel for subscriber mail', true);
    }
    const config = channelSchemas.email.config.parse(JSON.parse(mailer.config));
    const secrets = mailer.secrets
      ? (JSON.parse(deps.secrets.open(mailer.secrets)) as { password?: string })
      : {};
    await sendMail(
      { ...config, password: secrets.password },
      {
        from: config.from,
        to: [subscriber.address],
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `delivery-${ctx.deliveryId}@pagewatch`,
        headers: message.headers,
      },
      ctx,
    );
  };
}
