/**
 * One escaping function per output format, for text people typed or a checked site sent back
 * (monitor names, targets, error messages, incident titles and updates). docs/notifications.md
 * ("What people typed") lists which channel uses which.
 */

/** Turns user-typed text into something safe for one output format. */
export type Escape = (text: string) => string;

export const plain: Escape = (text) => text;

/** U+2060 WORD JOINER: invisible, and no chat service reads it as part of a name or markup. */
export const WORD_JOINER = '\u2060';

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** HTML text and attribute values (email, Pushover, Telegram's parse_mode HTML). */
export const escapeHtml: Escape = (text) => text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);

/** Telegram's HTML: entities, and no `@username` mention a checked site could make the bot send. */
export const escapeTelegram: Escape = (text) => escapeHtml(breakMentions(text));

/** The HTML formats: a template's own text is plain there too, so it is escaped whole. */
export const htmlFormats: ReadonlySet<Escape> = new Set([escapeHtml, escapeTelegram]);

/** CommonMark: a backslash before any character that could start markup (or raw HTML). */
export const escapeMarkdown: Escape = (text) => text.replace(/[\\`*_[\]()<>|~#!{}]/g, '\\$&');

/**
 * `@name`, `@here`, `@channel`, `@all`, `@everyone` no longer mention anyone: a word joiner goes
 * after an `@` that starts a word. Mattermost splits words on it, Rocket.Chat's and Discord's
 * name patterns stop at it; an `@` inside a word (mail addresses) is left alone.
 */
export const breakMentions: Escape = (text) =>
  text.replace(
    /(?<![\p{L}\p{N}])@(?=[\p{L}\p{N}_])|@(?=(?:everyone|here|channel|all)\b)/giu,
    `@${WORD_JOINER}`,
  );

/**
 * Slack mrkdwn has no backslash escapes: &, < and > become entities (so no `<!channel>`,
 * `<@U123>` or `<url|label>`), and broadcast words are broken in case a client parses them.
 */
export const escapeSlack: Escape = (text) =>
  breakMentions(text).replace(/[&<>]/g, (c) => HTML_ENTITIES[c]!);

/**
 * Markdown chat (Mattermost, Discord): backslash escapes, which both honour, and broken
 * mentions, which both detect in the raw text whatever the escapes (`\@here` still pings).
 */
export const escapeChatMarkdown: Escape = (text) => escapeMarkdown(breakMentions(text));

/**
 * Rocket.Chat's message parser ignores backslash escapes, so markup is broken with word joiners
 * instead: after `<` (raw HTML, `<url|label>` links) and between `]` and `(` (links, images).
 * The same text is safe in attachments, which render through marked.
 */
export const escapeRocketChat: Escape = (text) =>
  breakMentions(text)
    .replace(/</g, `<${WORD_JOINER}`)
    .replace(/\](?=\()/g, `]${WORD_JOINER}`);

/**
 * Adaptive Card markdown in Teams knows only bold, italic, lists and `[label](url)` links:
 * backslashes before those marks, and a word joiner after `<` so no `<at>` tag can be formed.
 */
export const escapeTeams: Escape = (text) =>
  text.replace(/[\\*_[\]]/g, '\\$&').replace(/</g, `<${WORD_JOINER}`);

// Characters that would end a link's URL part or smuggle markup into it.
const URL_UNSAFE = /[\s<>()[\]|"'`\\]/g;

/** A URL Pagewatch built, percent-encoded where a link syntax could be cut short. */
export function safeUrl(url: string): string {
  return url.replace(
    URL_UNSAFE,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** `[label](url)` with the label escaped and the URL safe. */
export function markdownLink(url: string, label: string): string {
  return `[${escapeMarkdown(label)}](${safeUrl(url)})`;
}

/** `<a href="url">label</a>` with both escaped. */
export function htmlLink(url: string, label: string): string {
  return `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
}
