import { escapeHtml, htmlLink, renderMessage } from '../../message.js';
import { httpError, outboundRequest } from '../../outbound.js';
import { clip, defineChannel, joinUrl } from '../define.js';

function errorsOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { errors?: unknown };
    return Array.isArray(parsed.errors) ? parsed.errors.map(String).join('; ') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * messages.json, form-encoded, HTML body. Recoveries and tests never go out above normal
 * priority; emergency (2) repeats every 60 s for up to an hour until acknowledged.
 */
const ackLine = (url: string) => `\n\n${htmlLink(url, 'Acknowledge')}`;

export const pushover = defineChannel('pushover', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const alarming = m.tone === 'critical' || m.tone === 'warning';
  const priority = alarming ? target.config.priority : Math.min(target.config.priority, 0);
  const html = [
    m.summary(escapeHtml),
    ...m.fields.map((f) => `<b>${f.label}:</b> ${escapeHtml(f.value)}`),
  ];
  const form = new URLSearchParams({
    token: target.secrets.appToken,
    user: target.secrets.userKey,
    title: clip(m.title, 250),
    // The acknowledge link is kept whole: the text before it is what gets clipped.
    message: m.ackUrl
      ? `${clip(html.join('\n'), 1024 - ackLine(m.ackUrl).length)}${ackLine(m.ackUrl)}`
      : clip(html.join('\n'), 1024),
    html: '1',
    priority: String(priority),
  });
  if (priority === 2) {
    form.set('retry', '60');
    form.set('expire', '3600');
  }
  if (m.url) {
    form.set('url', m.url);
    form.set('url_title', m.linkLabel);
  }
  if (target.config.device) form.set('device', target.config.device);
  if (target.config.sound) form.set('sound', target.config.sound);
  const res = await outboundRequest(
    {
      url: joinUrl(target.config.apiUrl, '/1/messages.json'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
    ctx,
  );
  if (res.status < 200 || res.status >= 300) throw httpError(res, errorsOf(res.body));
});
