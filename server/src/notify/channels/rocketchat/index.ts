import { escapeRocketChat } from '../../message.js';
import { postJson } from '../../outbound.js';
import { attachmentPayload } from '../attachment.js';
import { defineChannel } from '../define.js';

/** Incoming webhook; Rocket.Chat names the sender override `alias`. */
export const rocketchat = defineChannel('rocketchat', async (target, event, ctx) => {
  const payload = attachmentPayload(event, target.template, ctx.publicUrl, escapeRocketChat);
  if (target.config.channel) payload.channel = target.config.channel;
  if (target.config.username) payload.alias = target.config.username;
  await postJson(target.secrets.webhookUrl, payload, ctx);
});
