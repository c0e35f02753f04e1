import { escapeSlack, renderMessage, type Tone } from '../../message.js';
import { postJson } from '../../outbound.js';
import { clip, defineChannel } from '../define.js';

const EMOJI: Record<Tone, string> = {
  critical: ':red_circle:',
  warning: ':large_orange_circle:',
  ok: ':large_green_circle:',
  info: ':large_blue_circle:',
};

/** Block Kit for an incoming webhook: header, summary with fields, context, a link button. */
export const slack = defineChannel('slack', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const section: Record<string, unknown> = {
    type: 'section',
    text: { type: 'mrkdwn', text: clip(m.summary(escapeSlack), 3000) },
  };
  if (m.fields.length > 0) {
    section.fields = m.fields.slice(0, 10).map((f) => ({
      type: 'mrkdwn',
      text: clip(`*${f.label}*\n${escapeSlack(f.value)}`, 2000),
    }));
  }
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(m.title, 150), emoji: true } },
    section,
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `${EMOJI[m.tone]} Pagewatch · ${event.kind}` }],
    },
  ];
  if (m.url) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: m.linkLabel }, url: m.url }],
    });
  }
  const payload: Record<string, unknown> = { text: m.title, blocks };
  if (target.config.channel) payload.channel = target.config.channel;
  if (target.config.username) payload.username = target.config.username;
  await postJson(target.secrets.webhookUrl, payload, ctx);
});
