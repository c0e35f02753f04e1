import { ChannelError } from '../../channel.js';
import { breakMentions, escapeTelegram, htmlLink, renderMessage } from '../../message.js';
import { httpError, outboundRequest } from '../../outbound.js';
import { clip, defineChannel, joinUrl } from '../define.js';

const MAX_TEXT = 4096;

interface TelegramAnswer {
  ok?: boolean;
  description?: string;
  parameters?: { retry_after?: number };
}

function parse(body: string): TelegramAnswer {
  try {
    return JSON.parse(body) as TelegramAnswer;
  } catch {
    return {};
  }
}

/**
 * Telegram refuses the whole message (400 "BUTTON_URL_INVALID") when a URL button points at a
 * host it deems private — localhost, a bare name, an address literal — so such a link stays in
 * the text only; a public https address gets a button as well.
 */
function buttonable(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname;
  return (
    parsed.protocol === 'https:' &&
    host.includes('.') &&
    !/^[\d.]+$/.test(host) &&
    !host.startsWith('[') &&
    !/\.(localhost|local|internal|lan|home\.arpa)$/i.test(host)
  );
}

/** sendMessage with parse_mode HTML; the token sits in the path, so errors never show the URL. */
export const telegram = defineChannel('telegram', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const lines = [`<b>${escapeTelegram(m.title)}</b>`, '', m.summary(escapeTelegram)];
  if (m.fields.length > 0) {
    lines.push('', ...m.fields.map((f) => `<b>${f.label}:</b> ${escapeTelegram(f.value)}`));
  }
  if (m.url) lines.push('', htmlLink(m.url, m.linkLabel));
  if (m.ackUrl) lines.push('', htmlLink(m.ackUrl, 'Acknowledge'));
  const html = lines.join('\n');
  // Cutting HTML could split a tag, which Telegram rejects: an overlong message goes as plain text.
  const payload: Record<string, unknown> =
    html.length <= MAX_TEXT
      ? { chat_id: target.config.chatId, text: html, parse_mode: 'HTML' }
      : { chat_id: target.config.chatId, text: clip(breakMentions(m.text), MAX_TEXT) };
  payload.link_preview_options = { is_disabled: true };
  // An escalated outage's message gets buttons: acknowledging is what its reader does next.
  if (m.ackUrl && buttonable(m.ackUrl)) {
    const buttons = [
      ...(m.url && buttonable(m.url) ? [{ text: m.linkLabel, url: m.url }] : []),
      { text: 'Acknowledge', url: m.ackUrl },
    ];
    payload.reply_markup = { inline_keyboard: [buttons] };
  }
  if (target.config.messageThreadId !== null) {
    payload.message_thread_id = target.config.messageThreadId;
  }
  const url = joinUrl(target.config.baseUrl, `/bot${target.secrets.botToken}/sendMessage`);
  const res = await outboundRequest(
    { url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) },
    ctx,
  );
  const answer = parse(res.body);
  if (res.status >= 200 && res.status < 300 && answer.ok !== false) return;
  const err = httpError(res, answer.description);
  const retryAfter = answer.parameters?.retry_after;
  if (typeof retryAfter === 'number') throw new ChannelError(err.message, false, retryAfter * 1000);
  throw err;
});
