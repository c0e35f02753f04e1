import type { ChannelKind } from '@pagewatch/contract';
import type { Channel } from '../channel.js';
import { ChannelError } from '../channel.js';

/**
 * Placeholder until every kind lands: a plain webhook that POSTs the event as JSON. Each kind
 * gets its own folder under channels/ and one line here.
 */
const webhook: Channel = {
  kind: 'webhook',
  async send(target, event, ctx) {
    const url = String(target.config.url);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event }),
      signal: AbortSignal.timeout(ctx.timeoutMs),
      redirect: 'manual',
    });
    if (!res.ok) {
      const body = (await res.text()).slice(0, 300);
      throw new ChannelError(`HTTP ${res.status}: ${body}`, res.status >= 400 && res.status < 500);
    }
  },
};

export const channelRegistry: Partial<Record<ChannelKind, Channel>> = { webhook };
