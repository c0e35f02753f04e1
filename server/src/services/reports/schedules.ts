import {
  ReportScheduleInput,
  type ReportFileFormat,
  type ReportSchedule,
  type ReportSubjectKind,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { addMonths, monthAt, sendAtOf } from '../../domain/reports/months.js';
import type { PeriodTally, ReportScheduleRow } from '../../db/repositories/report-delivery.js';
import { notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { resolveSubject } from './subject.js';

const iso = (ms: number) => new Date(ms).toISOString();
const parse = <T>(json: string): T => JSON.parse(json) as T;

export function presentSchedule(r: ReportScheduleRow, tally?: PeriodTally): ReportSchedule {
  const nextPeriod = addMonths(r.queued_through, 1);
  return {
    id: Number(r.id),
    name: r.name,
    subject: { kind: r.subject_kind as ReportSubjectKind, id: r.subject_id },
    timeZone: r.time_zone,
    degradedIsDown: r.degraded_is_down === 1,
    formats: parse<ReportFileFormat[]>(r.formats),
    userIds: parse<number[]>(r.user_ids),
    emails: parse<string[]>(r.emails),
    enabled: r.enabled === 1,
    nextPeriod,
    nextSendAt: iso(sendAtOf(nextPeriod, r.time_zone)),
    lastPeriod: tally
      ? { period: tally.period, sent: tally.sent, pending: tally.pending, failed: tally.failed }
      : null,
    lastError: tally?.lastError ?? null,
    createdBy: r.created_by,
    createdAt: iso(Number(r.created_at)),
  };
}

type Parsed = ReturnType<typeof ReportScheduleInput.parse>;

/** The subject must exist and the chosen users too: a schedule of nothing would fail monthly. */
async function check(deps: ServiceDeps, input: Parsed): Promise<string> {
  const subject = await resolveSubject(deps, input.subject.kind, input.subject.id);
  for (const id of input.userIds) {
    if (!(await deps.repos.users.findById(id))) {
      throw validationFailed([
        { path: 'userIds', message: 'Choose people who have an account', code: 'unknown_user' },
      ]);
    }
  }
  return subject.name;
}

export async function listSchedules(deps: ServiceDeps): Promise<ReportSchedule[]> {
  const [rows, tallies] = await Promise.all([
    deps.repos.reportDelivery.schedules(),
    deps.repos.reportDelivery.tallies(),
  ]);
  return rows.map((r) => presentSchedule(r, tallies.get(Number(r.id))));
}

export async function getSchedule(deps: ServiceDeps, id: number): Promise<ReportSchedule> {
  const row = await deps.repos.reportDelivery.schedule(id);
  if (!row) throw notFound('Report schedule');
  const tallies = await deps.repos.reportDelivery.tallies();
  return presentSchedule(row, tallies.get(id));
}

/**
 * A monthly report email from now on: the first one reports the current month and goes out
 * on day 1 of the next (in the schedule's zone). Audited.
 */
export async function createSchedule(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: Parsed,
): Promise<ReportSchedule> {
  const subjectName = await check(deps, input);
  const now = deps.clock.now();
  const id = await deps.repos.reportDelivery.insertSchedule({
    name: input.name,
    subject_kind: input.subject.kind,
    subject_id: input.subject.id,
    time_zone: input.timeZone,
    degraded_is_down: input.degradedIsDown ? 1 : 0,
    formats: JSON.stringify(input.formats),
    user_ids: JSON.stringify(input.userIds),
    emails: JSON.stringify(input.emails),
    enabled: input.enabled ? 1 : 0,
    queued_through: addMonths(monthAt(now, input.timeZone), -1),
    created_by: ctx.actor.type === 'anonymous' ? 'anonymous' : ctx.actor.label,
    created_at: now,
    updated_at: now,
  });
  await audit(
    deps,
    ctx,
    'report.schedule_created',
    { type: 'report_schedule', id },
    `Monthly report "${input.name}" of ${subjectName} to ${recipientCount(input)}`,
  );
  return getSchedule(deps, id);
}

const recipientCount = (s: Parsed) => {
  const n = s.userIds.length + s.emails.length;
  return n === 1 ? '1 recipient' : `${n} recipients`;
};

export async function updateSchedule(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: Parsed,
): Promise<ReportSchedule> {
  const row = await deps.repos.reportDelivery.schedule(id);
  if (!row) throw notFound('Report schedule');
  const subjectName = await check(deps, input);
  await deps.repos.reportDelivery.updateSchedule(id, {
    name: input.name,
    subject_kind: input.subject.kind,
    subject_id: input.subject.id,
    time_zone: input.timeZone,
    degraded_is_down: input.degradedIsDown ? 1 : 0,
    formats: JSON.stringify(input.formats),
    user_ids: JSON.stringify(input.userIds),
    emails: JSON.stringify(input.emails),
    enabled: input.enabled ? 1 : 0,
    updated_at: deps.clock.now(),
  });
  await audit(
    deps,
    ctx,
    'report.schedule_updated',
    { type: 'report_schedule', id },
    `Monthly report "${input.name}" of ${subjectName} to ${recipientCount(input)}${input.enabled ? '' : ' (paused)'}`,
  );
  return getSchedule(deps, id);
}

export async function deleteSchedule(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const row = await deps.repos.reportDelivery.schedule(id);
  if (!row) throw notFound('Report schedule');
  await deps.repos.reportDelivery.removeSchedule(id);
  await audit(
    deps,
    ctx,
    'report.schedule_deleted',
    { type: 'report_schedule', id },
    `Monthly report "${row.name}"`,
  );
}
