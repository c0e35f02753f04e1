import { renderMessage } from '../../message.js';
import { postJson } from '../../outbound.js';
import { defineChannel, joinUrl } from '../define.js';

/** POST /message with the application token; the body is Markdown, a click opens the link. */
export const gotify = defineChannel('gotify', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const extras: Record<string, unknown> = {
    'client::display': { contentType: 'text/markdown' },
  };
  if (m.url) extras['client::notification'] = { click: { url: m.url } };
  const payload = {
    title: m.title,
    message: m.markdown,
    priority: target.config.priority,
    extras,
  };
  await postJson(joinUrl(target.config.serverUrl, '/message'), payload, ctx, {
    'x-gotify-key': target.secrets.appToken,
  });
});
