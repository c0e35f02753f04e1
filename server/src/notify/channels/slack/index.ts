import { escapeSlack, renderMessage, type Tone } from '../../message.js';
import { postJson } from '../../outbound.js';
import { clip, defineChannel } from '../define.js';

const EMOJI: Record<Tone, string> = {
  critical: ':red_circle:',
  warning: ':large_orange_circle:',
  ok: ':large_green_circle:',
  info: ':large_blue_circle:',
};

// verbatim: Slack neither links channel names nor parses mentions in what people typed.
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });

/** Block Kit for an incoming webhook: header, summary with fields, context, a link button. */
export const slack = defineChannel('slack', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const title = escapeSlack(m.title);
  const section: Record<string, unknown> = {
    type: 'section',
    text: mrkdwn(clip(m.summary(escapeSlack), 3000)),
  };
  if (m.fields.length > 0) {
    section.fields = m.fields
      .slice(0, 10)
      .map((f) => mrkdwn(clip(`*${f.label}*\n${escapeSlack(f.value)}`, 2000)));
  }
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(title, 150), emoji: true } },
    section,
    { type: 'context', elements: [mrkdwn(`${EMOJI[m.tone]} Pagewatch · ${event.kind}`)] },
  ];
  // Link buttons open the URL; an incoming webhook needs no Slack app to receive a click.
  const buttons = [
    ...(m.url
      ? [{ type: 'button', text: { type: 'plain_text', text: m.linkLabel }, url: m.url }]
      : []),
    ...(m.ackUrl
      ? [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Acknowledge' },
            url: m.ackUrl,
            style: 'primary',
          },
        ]
      : []),
  ];
  if (buttons.length > 0) blocks.push({ type: 'actions', elements: buttons });
  // The top-level text is mrkdwn too: it is what notifications and old clients show.
  const payload: Record<string, unknown> = { text: title, blocks };
  if (target.config.channel) payload.channel = target.config.channel;
  if (target.config.username) payload.username = target.config.username;
  await postJson(target.secrets.webhookUrl, payload, ctx);
});
