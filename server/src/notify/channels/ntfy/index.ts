import { renderMessage, type Tone } from '../../message.js';
import { postJson } from '../../outbound.js';
import { defineChannel, joinUrl } from '../define.js';

const TAGS: Record<Tone, string> = {
  critical: 'rotating_light',
  warning: 'warning',
  ok: 'white_check_mark',
  info: 'information_source',
};

/** JSON publishing to the server root; recoveries and tests go out at the default priority. */
export const ntfy = defineChannel('ntfy', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const alarming = m.tone === 'critical' || m.tone === 'warning';
  const payload: Record<string, unknown> = {
    topic: target.config.topic,
    title: m.title,
    message: m.text,
    priority: alarming ? target.config.priority : Math.min(target.config.priority, 3),
    tags: [TAGS[m.tone]],
  };
  if (m.url) payload.click = m.url;
  // A `view` action is a button on the notification; `clear` dismisses it once tapped.
  if (m.ackUrl)
    payload.actions = [{ action: 'view', label: 'Acknowledge', url: m.ackUrl, clear: true }];
  const token = target.secrets.token;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await postJson(joinUrl(target.config.serverUrl, '/'), payload, ctx, headers);
});
