import type { AlertEvent } from '@pagewatch/contract';
import { escapeHtml, renderMessage } from '../../message.js';
import { defineChannel } from '../define.js';
import { sendMail } from './transport.js';

export { sendMail, type OutgoingMail, type SmtpServer } from './transport.js';

/** One thread per monitor (or incident) in mail clients that follow References. */
function threadOf(event: AlertEvent): string | null {
  if (event.kind.startsWith('incident.') && event.incident) {
    return `<incident-${event.incident.id}@pagewatch>`;
  }
  return event.monitor ? `<monitor-${event.monitor.id}@pagewatch>` : null;
}

function htmlDocument(title: string, body: string, color: string): string {
  return (
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<h2 style="border-left:4px solid ${color};padding-left:8px">${escapeHtml(title)}</h2>` +
    `${body}<p style="color:#666;font-size:12px">Sent by Pagewatch</p></body></html>`
  );
}

export const email = defineChannel('email', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const thread = threadOf(event);
  const headers: Record<string, string> = { 'X-Pagewatch-Event': event.kind };
  if (thread) Object.assign(headers, { References: thread, 'In-Reply-To': thread });
  await sendMail(
    { ...target.config, password: target.secrets.password },
    {
      from: target.config.from,
      to: target.config.to,
      subject: m.title,
      text: m.text,
      html: htmlDocument(m.title, m.html, m.color),
      // Stable across retries of one delivery, so a duplicate is recognisable as one.
      messageId: `delivery-${ctx.deliveryId}@pagewatch`,
      headers,
    },
    ctx,
  );
});
