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

/** sendMessage with parse_mode HTML; the token sits in the path, so errors never show the URL. */
export const telegram = defineChannel('telegram', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const lines = [`<b>${escapeTelegram(m.title)}</b>`, '', m.summary(escapeTelegram)];
  if (m.fields.length > 0) {
    lines.push('', ...m.fields.map((f) => `<b>${f.label}:</b> ${escapeTelegram(f.value)}`));
  }
  if (m.url) lines.push('', htmlLink(m.url, m.linkLabel));
  const html = lines.join('\n');
  // Cutting HTML could split a tag, which Telegram rejects: an overlong message goes as plain text.
  const payload: Record<string, unknown> =
    html.length <= MAX_TEXT
      ? { chat_id: target.config.chatId, text: html, parse_mode: 'HTML' }
      : { chat_id: target.config.chatId, text: clip(breakMentions(m.text), MAX_TEXT) };
  payload.link_preview_options = { is_disabled: true };
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
