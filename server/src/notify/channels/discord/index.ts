import { ChannelError } from '../../channel.js';
import { escapeChatMarkdown, renderMessage } from '../../message.js';
import { httpError, outboundRequest } from '../../outbound.js';
import { clip, defineChannel } from '../define.js';

/** Discord's 429 body gives `retry_after` in seconds (fractional); prefer it to the header. */
function rateLimitMs(body: string): number | null {
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown };
    return typeof parsed.retry_after === 'number' ? Math.ceil(parsed.retry_after * 1000) : null;
  } catch {
    return null;
  }
}

export const discord = defineChannel('discord', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const embed: Record<string, unknown> = {
    title: clip(escapeChatMarkdown(m.title), 256),
    // A webhook a Discord app does not own cannot carry buttons: the link goes in the text.
    description: m.ackUrl
      ? `${clip(m.summary(escapeChatMarkdown), 3900)}\n\n[Acknowledge](${m.ackUrl})`
      : clip(m.summary(escapeChatMarkdown), 4096),
    color: Number.parseInt(m.color.slice(1), 16),
    fields: m.fields.slice(0, 25).map((f) => ({
      name: clip(f.label, 256),
      value: clip(escapeChatMarkdown(f.value), 1024),
      inline: true,
    })),
    timestamp: event.at,
    footer: { text: 'Pagewatch' },
  };
  if (m.url) embed.url = m.url;
  // No pings at all, even if a mention slipped past the escaping.
  const payload: Record<string, unknown> = { embeds: [embed], allowed_mentions: { parse: [] } };
  if (target.config.username) payload.username = target.config.username;
  const res = await outboundRequest(
    {
      url: target.secrets.webhookUrl,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    },
    ctx,
  );
  if (res.status >= 200 && res.status < 300) return;
  const err = httpError(res);
  const retryAfterMs = res.status === 429 ? rateLimitMs(res.body) : null;
  throw retryAfterMs === null ? err : new ChannelError(err.message, false, retryAfterMs);
});
