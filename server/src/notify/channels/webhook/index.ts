import { createHmac } from 'node:crypto';
import { renderMessage } from '../../message.js';
import { outboundSend } from '../../outbound.js';
import { defineChannel } from '../define.js';

/** `sha256=<hex>` over "<timestamp>.<raw body>"; docs/notifications.md shows receivers the check. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export const webhook = defineChannel('webhook', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const body = JSON.stringify({ event, title: m.title, text: m.text, url: m.url });
  const headers: Record<string, string> = {};
  for (const h of target.config.headers) headers[h.name.toLowerCase()] = h.value;
  Object.assign(headers, {
    'content-type': 'application/json',
    'x-pagewatch-delivery': String(ctx.deliveryId),
    // The same on every resend of this alert (docs/notifications.md): receivers drop repeats.
    'idempotency-key': ctx.idempotencyKey ?? `pagewatch-delivery-${ctx.deliveryId}`,
    'x-pagewatch-event': event.kind,
  });
  const secret = target.secrets.signingSecret;
  if (secret) {
    const timestamp = Math.floor(Date.now() / 1000);
    headers['x-pagewatch-timestamp'] = String(timestamp);
    headers['x-pagewatch-signature'] = webhookSignature(secret, timestamp, body);
  }
  await outboundSend({ url: target.config.url, method: target.config.method, headers, body }, ctx);
});
