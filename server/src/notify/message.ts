import type { AlertEvent, MessageTemplate } from '@pagewatch/contract';
import { describeEvent, type MessageField } from './message/describe.js';
import {
  escapeHtml,
  escapeMarkdown,
  htmlFormats,
  htmlLink,
  markdownLink,
  plain,
  type Escape,
} from './message/escape.js';
import { toneColor, type Tone } from './message/format.js';
import { FALLBACK_TITLE_PREFIX, fallbackNote } from './message/channel-health-wording.js';
import { REROUTED_TITLE_PREFIX, rerouteNote } from './message/reroute-wording.js';
import { fillTemplate, placeholderValues, type PlaceholderValues } from './message/template.js';

export type { MessageField } from './message/describe.js';
export type { Escape } from './message/escape.js';
export type { Tone } from './message/format.js';
export {
  breakMentions,
  escapeChatMarkdown,
  escapeHtml,
  escapeMarkdown,
  escapeRocketChat,
  escapeSlack,
  escapeTeams,
  escapeTelegram,
  htmlLink,
  markdownLink,
  plain,
} from './message/escape.js';
export { humanDuration, toneColor } from './message/format.js';

/** An event rendered once for every output format a channel may need. */
export interface Message {
  /** Plain text; channels escape it where their title field interprets markup. */
  title: string;
  /** The body's paragraph (the template's body when set), with user-typed parts escaped. */
  summary: (esc: Escape) => string;
  /** Detail rows (plain); empty when a body template replaces the default body. */
  fields: MessageField[];
  text: string;
  markdown: string;
  /** An HTML fragment: everything user-typed is escaped. */
  html: string;
  /** The monitor's or incident's page; null without PAGEWATCH_PUBLIC_URL. */
  url: string | null;
  linkLabel: string;
  /**
   * The signed one-click acknowledge link of an escalated outage (ADR 39), else null. Chat
   * channels that can show a link button put it on one (docs/notifications.md lists which).
   */
  ackUrl: string | null;
  tone: Tone;
  /** `#rrggbb` for the tone. */
  color: string;
}

function linkOf(
  event: AlertEvent,
  publicUrl: string | null,
): { url: string | null; label: string } {
  if (!publicUrl) return { url: null, label: '' };
  if (event.incident && event.kind.startsWith('incident.')) {
    return { url: `${publicUrl}/incidents/${event.incident.id}`, label: 'Open incident' };
  }
  if (event.monitor)
    return { url: `${publicUrl}/monitors/${event.monitor.id}`, label: 'Open monitor' };
  return { url: publicUrl, label: 'Open Pagewatch' };
}

// HTML is the one format whose template text is plain too: its literals are escaped as well.
function templateSummary(body: string, values: PlaceholderValues): (esc: Escape) => string {
  return (esc) =>
    htmlFormats.has(esc) ? esc(fillTemplate(body, values)) : fillTemplate(body, values, esc);
}

/**
 * The default message for an event, or the channel's template where it sets a title or body.
 * Template values are escaped per format; so is the template itself in HTML (it is plain text).
 */
export function renderMessage(
  event: AlertEvent,
  template: MessageTemplate | null,
  publicUrl: string | null,
): Message {
  const d = describeEvent(event);
  const link = linkOf(event, publicUrl);
  const values = placeholderValues(event, link.url);
  // A template that fills to nothing (only unknown placeholders) falls back to the default.
  const filled = (tpl: string | undefined) =>
    fillTemplate(tpl ?? '', values).trim() ? (tpl ?? '').trim() : '';
  const titleTpl = filled(template?.title);
  const bodyTpl = filled(template?.body);
  const title0 = titleTpl ? fillTemplate(titleTpl, values).trim() : d.title;
  const summary0 = bodyTpl ? templateSummary(bodyTpl, values) : d.summary;
  // A fallback's message says so first, whatever the template (ADR 62); so does a message
  // a channel's quiet hours rerouted (ADR 68).
  const reroute = rerouteNote(event);
  const fallback = fallbackNote(event);
  const notes = [reroute, fallback].filter((n) => n !== null);
  const title =
    (reroute ? REROUTED_TITLE_PREFIX : '') + (fallback ? FALLBACK_TITLE_PREFIX : '') + title0;
  const summary =
    notes.length === 0
      ? summary0
      : (esc: Escape) => [...notes.map((n) => n(esc)), summary0(esc)].join('\n\n');
  const fields = bodyTpl ? [] : d.fields;
  const url = link.url;
  const ack = event.escalation?.ackUrl ?? null;
  const text = [
    summary(plain),
    fields.map((f) => `${f.label}: ${f.value}`).join('\n'),
    url ?? '',
    ack ? `Acknowledge: ${ack}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const markdown = [
    summary(escapeMarkdown),
    fields.map((f) => `**${f.label}:** ${escapeMarkdown(f.value)}`).join('  \n'),
    url ? markdownLink(url, link.label) : '',
    ack ? markdownLink(ack, 'Acknowledge') : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const rows = fields
    .map((f) => `<tr><th align="left">${f.label}</th><td>${escapeHtml(f.value)}</td></tr>`)
    .join('');
  const html = [
    `<p>${summary(escapeHtml).replace(/\n/g, '<br>')}</p>`,
    rows ? `<table>${rows}</table>` : '',
    url ? `<p>${htmlLink(url, link.label)}</p>` : '',
    ack ? `<p>${htmlLink(ack, 'Acknowledge')}</p>` : '',
  ].join('');
  return {
    title,
    summary,
    fields,
    text,
    markdown,
    html,
    url,
    linkLabel: link.label,
    ackUrl: ack,
    tone: d.tone,
    color: toneColor[d.tone],
  };
}

/** The event "send test" delivers. */
export function testEvent(at: Date): AlertEvent {
  return {
    kind: 'test',
    at: at.toISOString(),
    monitor: null,
    status: null,
    previousStatus: null,
    cause: null,
    outageMs: null,
    downChecks: null,
    certificate: null,
    incident: null,
  };
}
