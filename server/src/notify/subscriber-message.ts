import type { SubscriberNotice } from '@pagewatch/contract';
import { noticeLinks } from '../domain/subscriber-notices.js';
import { escapeHtml, htmlLink } from './message/escape.js';

export interface SubscriberMessage {
  subject: string;
  text: string;
  html: string;
  /** RFC 8058 one-click unsubscribe, honoured by the big mailbox providers. */
  headers: Record<string, string>;
  /** What a webhook subscriber receives. */
  json: Record<string, unknown>;
}

// A line is text (typed by people: page, incident and maintenance titles, updates) and links
// Pagewatch built. Typed text is never made a link, even when it looks like a URL.
type Part = string | { link: string };
type Line = Part[];

const link = (url: string): Part => ({ link: url });

const when = (iso: string | null): string =>
  iso ? new Date(iso).toUTCString().replace(' GMT', ' UTC') : 'not scheduled';

function body(notice: SubscriberNotice, links: ReturnType<typeof noticeLinks>) {
  const title = notice.page.title;
  if (notice.kind === 'confirm') {
    return {
      subject: `Confirm your subscription to ${title}`,
      lines: [
        [`You asked to be told about incidents and maintenance on ${title}.`],
        ['Confirm here: ', link(links.confirm)],
        [`If it wasn't you, ignore this message: nothing will be sent without confirmation.`],
      ],
    };
  }
  if (notice.kind === 'incident' && notice.incident) {
    const i = notice.incident;
    return {
      subject: `[${title}] ${i.title} — ${i.state}`,
      lines: [
        [`${i.title} (${i.severity}, ${i.state})`],
        [i.message],
        ...(links.incident ? [['Details: ', link(links.incident)]] : []),
      ],
    };
  }
  const m = notice.maintenance!;
  const verb = { scheduled: 'Scheduled', updated: 'Updated', cancelled: 'Cancelled' }[m.change];
  return {
    subject: `[${title}] ${verb} maintenance: ${m.title}`,
    lines: [
      [`${verb} maintenance: ${m.title}`],
      [`From ${when(m.startsAt)} to ${when(m.endsAt)}`],
      ...(m.description ? [[m.description]] : []),
      ['Status page: ', link(links.page)],
    ],
  };
}

const asText = (line: Line) => line.map((p) => (typeof p === 'string' ? p : p.link)).join('');

// A link shows its own URL, so the mail cannot show one address and lead to another.
const asHtml = (line: Line) =>
  line.map((p) => (typeof p === 'string' ? escapeHtml(p) : htmlLink(p.link, p.link))).join('');

/** Renders a notice for one subscriber: every message carries its unsubscribe link. */
export function subscriberMessage(notice: SubscriberNotice, token: string): SubscriberMessage {
  const links = noticeLinks(notice, token);
  const { subject, lines } = body(notice, links);
  const footer: Line = ['Unsubscribe: ', link(links.unsubscribe)];
  const text = [...lines, [], footer].map(asText).join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    ...lines.map((l) => `<p>${asHtml(l)}</p>`),
    `<hr><p style="color:#666;font-size:13px">${asHtml(footer)}</p>`,
    '</body></html>',
  ].join('');
  return {
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    json: {
      kind: notice.kind,
      at: notice.at,
      page: { title: notice.page.title, url: links.page },
      incident: notice.incident ? { ...notice.incident, url: links.incident } : null,
      maintenance: notice.maintenance,
      unsubscribeUrl: links.unsubscribe,
    },
  };
}
