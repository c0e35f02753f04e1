import type { SubscriberNotice } from '@pagewatch/contract';
import { noticeLinks } from '../domain/subscriber-notices.js';

export interface SubscriberMessage {
  subject: string;
  text: string;
  html: string;
  /** RFC 8058 one-click unsubscribe, honoured by the big mailbox providers. */
  headers: Record<string, string>;
  /** What a webhook subscriber receives. */
  json: Record<string, unknown>;
}

const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const when = (iso: string | null): string =>
  iso ? new Date(iso).toUTCString().replace(' GMT', ' UTC') : 'not scheduled';

function body(notice: SubscriberNotice, links: ReturnType<typeof noticeLinks>) {
  const title = notice.page.title;
  if (notice.kind === 'confirm') {
    return {
      subject: `Confirm your subscription to ${title}`,
      lines: [
        `You asked to be told about incidents and maintenance on ${title}.`,
        `Confirm here: ${links.confirm}`,
        `If it wasn't you, ignore this message: nothing will be sent without confirmation.`,
      ],
    };
  }
  if (notice.kind === 'incident' && notice.incident) {
    const i = notice.incident;
    return {
      subject: `[${title}] ${i.title} — ${i.state}`,
      lines: [`${i.title} (${i.severity}, ${i.state})`, i.message, `Details: ${links.incident}`],
    };
  }
  const m = notice.maintenance!;
  const verb = { scheduled: 'Scheduled', updated: 'Updated', cancelled: 'Cancelled' }[m.change];
  return {
    subject: `[${title}] ${verb} maintenance: ${m.title}`,
    lines: [
      `${verb} maintenance: ${m.title}`,
      `From ${when(m.startsAt)} to ${when(m.endsAt)}`,
      ...(m.description ? [m.description] : []),
      `Status page: ${links.page}`,
    ],
  };
}

/** Renders a notice for one subscriber: every message carries its unsubscribe link. */
export function subscriberMessage(notice: SubscriberNotice, token: string): SubscriberMessage {
  const links = noticeLinks(notice, token);
  const { subject, lines } = body(notice, links);
  const footer = `Unsubscribe: ${links.unsubscribe}`;
  const text = [...lines, '', footer].join('\n\n');
  const linkify = (line: string) =>
    escapeHtml(line).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    ...lines.map((l) => `<p>${linkify(l)}</p>`),
    `<hr><p style="color:#666;font-size:13px">${linkify(footer)}</p>`,
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
