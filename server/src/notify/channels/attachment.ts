import type { AlertEvent } from '@pagewatch/contract';
import { renderMessage, type Escape } from '../message.js';

/**
 * The Slack-compatible `text` + `attachments` payload Mattermost and Rocket.Chat incoming
 * webhooks take; `esc` is the service's escaping for everything people typed, wherever it goes.
 */
export function attachmentPayload(
  event: AlertEvent,
  template: Parameters<typeof renderMessage>[1],
  publicUrl: string | null,
  esc: Escape,
): Record<string, unknown> {
  const m = renderMessage(event, template, publicUrl);
  const attachment: Record<string, unknown> = {
    // Mattermost rewrites Slack's `<!channel>` even here: the fallback is escaped like the rest.
    fallback: esc(m.title),
    color: m.color,
    title: esc(m.title),
    // Interactive buttons need a Mattermost or Rocket.Chat integration to post back to: a link.
    text: m.ackUrl ? `${m.summary(esc)}\n\n[Acknowledge](${m.ackUrl})` : m.summary(esc),
    fields: m.fields.map((f) => ({ short: true, title: f.label, value: esc(f.value) })),
  };
  if (m.url) attachment.title_link = m.url;
  return { text: `**${esc(m.title)}**`, attachments: [attachment] };
}
