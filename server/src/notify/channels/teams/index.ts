import { escapeTeams, renderMessage, type Tone } from '../../message.js';
import { postJson } from '../../outbound.js';
import { defineChannel } from '../define.js';

const COLOR: Record<Tone, string> = {
  critical: 'Attention',
  warning: 'Warning',
  ok: 'Good',
  info: 'Accent',
};

/**
 * A Teams Workflows ("Post to a channel when a webhook request is received") Adaptive Card;
 * text blocks and fact values are markdown, so what people typed is escaped in all of them.
 */
export const teams = defineChannel('teams', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const body: unknown[] = [
    {
      type: 'TextBlock',
      text: escapeTeams(m.title),
      weight: 'Bolder',
      size: 'Medium',
      color: COLOR[m.tone],
      wrap: true,
    },
    { type: 'TextBlock', text: m.summary(escapeTeams), wrap: true },
  ];
  if (m.fields.length > 0) {
    body.push({
      type: 'FactSet',
      facts: m.fields.map((f) => ({ title: f.label, value: escapeTeams(f.value) })),
    });
  }
  const card: Record<string, unknown> = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
  };
  const actions = [
    ...(m.url ? [{ type: 'Action.OpenUrl', title: m.linkLabel, url: m.url }] : []),
    ...(m.ackUrl
      ? [{ type: 'Action.OpenUrl', title: 'Acknowledge', url: m.ackUrl, style: 'positive' }]
      : []),
  ];
  if (actions.length > 0) card.actions = actions;
  const payload = {
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card },
    ],
  };
  await postJson(target.secrets.webhookUrl, payload, ctx);
});
