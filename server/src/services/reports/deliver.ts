import { channelSchemas, type Report } from '@pagewatch/contract';
import { systemContext } from '../../domain/actor.js';
import { dueMonths } from '../../domain/reports/months.js';
import type { DeliveryRow, ReportScheduleRow } from '../../db/repositories/report-delivery.js';
import { ChannelError } from '../../notify/channel.js';
import { channelEgress } from '../../notify/address-guard.js';
import { sendMail, type OutgoingMail } from '../../notify/channels/email/index.js';
import { escapeHtml } from '../../notify/message.js';
import { reportCsv, reportFileName } from '../../reports/csv.js';
import { duration, percent } from '../../reports/format.js';
import { reportPdf } from '../../reports/pdf.js';
import { systemMailChannel } from '../accounts/system-mail.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { describeSendError } from '../notification-channels/test.js';
import { openSecrets } from '../notification-channels/secrets.js';
import { buildReport } from './build.js';

const SEND_TIMEOUT_MS = 15_000;
/** Waits before each retry of a message; after the last it is given up. */
/** How long a message taken for sending stays taken if its sender dies. */
const CLAIM_MS = 10 * 60_000;
const RETRY_MS = [5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];

export interface ScheduleRunResult {
  queued: number;
  sent: number;
  failed: number;
}

/** A schedule's recipients now: its addresses and its users' current addresses, once each. */
async function recipientsOf(deps: ServiceDeps, s: ReportScheduleRow): Promise<string[]> {
  const emails = JSON.parse(s.emails) as string[];
  const users = await Promise.all(
    (JSON.parse(s.user_ids) as number[]).map((id) => deps.repos.users.findById(id)),
  );
  const all = [...users.flatMap((u) => (u ? [u.email.toLowerCase()] : [])), ...emails];
  return [...new Set(all)];
}

/**
 * Queues every month that has ended since a schedule last queued one (catching up after a
 * restart or a missed tick), then sends what is due. Months are queued with a compare-and-set
 * and each (schedule, month, recipient) once (ADR 65), so however many processes run this or
 * however often, a month goes out once; a paused schedule moves past its months silently.
 */
export async function runReportSchedules(deps: ServiceDeps): Promise<ScheduleRunResult> {
  const repo = deps.repos.reportDelivery;
  const now = deps.clock.now();
  let queued = 0;
  for (const s of await repo.schedules()) {
    let after = s.queued_through;
    for (const period of dueMonths(after, now, s.time_zone)) {
      const recipients = s.enabled === 1 ? await recipientsOf(deps, s) : [];
      if (!(await repo.queueMonth(Number(s.id), after, period, recipients, now))) break;
      queued += recipients.length;
      after = period;
    }
  }
  const groups = new Map<string, DeliveryRow[]>();
  for (const d of await repo.due(now)) {
    const key = `${d.scheduleId}:${d.period}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  let sent = 0;
  let failed = 0;
  for (const due of groups.values()) {
    // A month's messages are claimed together, so one sender sends them all.
    const rows = await repo.claim(due, now + CLAIM_MS);
    if (rows.length === 0) continue;
    const r = await deliverGroup(deps, rows);
    sent += r.sent;
    failed += r.failed;
  }
  return { queued, sent, failed };
}

async function fail(deps: ServiceDeps, d: DeliveryRow, error: string, permanent: boolean) {
  const wait = RETRY_MS[d.attempts];
  const now = deps.clock.now();
  await deps.repos.reportDelivery.markFailed(
    d.id,
    error,
    permanent || wait === undefined ? null : now + wait,
    now,
  );
}

/** One schedule's month: the report built once, then a message to each recipient. */
async function deliverGroup(
  deps: ServiceDeps,
  rows: DeliveryRow[],
): Promise<{ sent: number; failed: number }> {
  const first = rows[0]!;
  const s = await deps.repos.reportDelivery.schedule(first.scheduleId);
  if (!s) return { sent: 0, failed: 0 };
  const channel = await systemMailChannel(deps);
  let mail: Omit<OutgoingMail, 'to' | 'from'>;
  try {
    if (!channel)
      throw new Error('No system mail channel is set (Settings → General → System mail)');
    const report = await buildReport(deps, {
      subject: s.subject_kind as Report['subject']['kind'],
      id: s.subject_id,
      range: 'month',
      period: first.period,
      timeZone: s.time_zone,
      degradedIsDown: s.degraded_is_down === 1,
    });
    mail = await reportMail(report, s.name, JSON.parse(s.formats) as string[]);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    for (const d of rows) await fail(deps, d, error, false);
    return { sent: 0, failed: rows.length };
  }
  const config = channelSchemas.email.config.parse(channel.config);
  const secrets = openSecrets(channel, deps.secrets) as { password?: string };
  let sent = 0;
  const errors: string[] = [];
  for (const d of rows) {
    try {
      await sendMail(
        { ...config, password: secrets.password },
        { ...mail, from: config.from, to: [d.recipient] },
        {
          timeoutMs: SEND_TIMEOUT_MS,
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          egress: channelEgress(deps.blockPrivateNotifyTargets ?? false),
        },
      );
      await deps.repos.reportDelivery.markSent(d.id, deps.clock.now());
      sent += 1;
    } catch (err) {
      const error = describeSendError(err);
      errors.push(`${d.recipient}: ${error}`);
      await fail(deps, d, error, err instanceof ChannelError && err.permanent);
    }
  }
  const failedNote = errors.length ? `; not sent to ${errors.join(', ')}` : '';
  await audit(
    deps,
    systemContext,
    'report.schedule_sent',
    { type: 'report_schedule', id: Number(s.id) },
    `Monthly report "${s.name}" for ${first.period} sent to ${sent} of ${rows.length}${failedNote}`,
  );
  return { sent, failed: errors.length };
}

/** The message: the figures in its body, the PDF and/or CSV attached. */
export async function reportMail(
  r: Report,
  scheduleName: string,
  formats: readonly string[],
): Promise<Omit<OutgoingMail, 'to' | 'from'>> {
  const lines = [
    `${r.subject.name}, ${r.label} (${r.timeZone})`,
    `Uptime: ${percent(r.uptime)}`,
    `Downtime: ${duration(r.downtimeMs)}`,
    `Incidents: ${r.incidents}${r.mttrMs === null ? '' : `, mean time to recovery ${duration(r.mttrMs)}`}`,
  ];
  const shown = r.monitors.slice(0, 25);
  const rows = shown.map((m) => `${m.name}: ${percent(m.uptime)}, down ${duration(m.downtimeMs)}`);
  const more =
    r.monitors.length > shown.length
      ? [`… and ${r.monitors.length - shown.length} more in the attachment`]
      : [];
  const attachments: NonNullable<OutgoingMail['attachments']> = [];
  if (formats.includes('pdf'))
    attachments.push({
      filename: reportFileName(r, 'pdf'),
      content: await reportPdf(r),
      contentType: 'application/pdf',
    });
  if (formats.includes('csv'))
    attachments.push({
      filename: reportFileName(r, 'csv'),
      content: reportCsv(r),
      contentType: 'text/csv; charset=utf-8',
    });
  const footer = `Sent by Pagewatch: the monthly report "${scheduleName}".`;
  const text = [...lines, '', ...rows, ...more, '', footer].join('\n');
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<h1 style="font-size:18px">${escapeHtml(lines[0]!)}</h1>` +
    lines
      .slice(1)
      .map((l) => `<p style="margin:4px 0">${escapeHtml(l)}</p>`)
      .join('') +
    (rows.length
      ? `<ul>${[...rows, ...more].map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`
      : '') +
    `<p style="color:#666;font-size:12px">${escapeHtml(footer)}</p></body></html>`;
  return {
    subject: `Availability report: ${r.subject.name}, ${r.label}`,
    text,
    html,
    attachments,
  };
}
