import { escapeChatMarkdown } from '../../message.js';
import { postJson } from '../../outbound.js';
import { attachmentPayload } from '../attachment.js';
import { defineChannel } from '../define.js';

/** Incoming webhook; `channel` and `username` apply where the server allows overrides. */
export const mattermost = defineChannel('mattermost', async (target, event, ctx) => {
  const payload = attachmentPayload(event, target.template, ctx.publicUrl, escapeChatMarkdown);
  if (target.config.channel) payload.channel = target.config.channel;
  if (target.config.username) payload.username = target.config.username;
  await postJson(target.secrets.webhookUrl, payload, ctx);
});
