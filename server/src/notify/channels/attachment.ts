import type { AlertEvent } from '@pagewatch/contract';
import { escapeMarkdown, renderMessage } from '../message.js';

/**
 * The Slack-compatible `text` + `attachments` payload Mattermost and Rocket.Chat incoming
 * webhooks take (both render Markdown in text and field values).
 */
export function attachmentPayload(
  event: AlertEvent,
  template: Parameters<typeof renderMessage>[1],
  publicUrl: string | null,
): Record<string, unknown> {
  const m = renderMessage(event, template, publicUrl);
  const attachment: Record<string, unknown> = {
    fallback: m.title,
    color: m.color,
    title: m.title,
    text: m.summary(escapeMarkdown),
    fields: m.fields.map((f) => ({ short: true, title: f.label, value: escapeMarkdown(f.value) })),
  };
  if (m.url) attachment.title_link = m.url;
  return { text: `**${escapeMarkdown(m.title)}**`, attachments: [attachment] };
}
