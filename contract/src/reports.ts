import { z } from 'zod';
import { TimeZone } from './maintenance.js';

export const correctionLimits = { reasonMax: 500, maxDays: 366 } as const;

/** A period an editor leaves out of a monitor's availability (ADR 54). */
export const CorrectionInput = z
  .strictObject({
    startsAt: z.iso.datetime({ error: 'Enter when the period starts' }),
    endsAt: z.iso.datetime({ error: 'Enter when the period ends' }),
    reason: z
      .string({ error: 'Say why this period is left out' })
      .trim()
      .min(1, 'Say why this period is left out, e.g. a false positive or a planned test')
      .max(correctionLimits.reasonMax),
  })
  .refine((c) => Date.parse(c.endsAt) > Date.parse(c.startsAt), {
    path: ['endsAt'],
    message: 'The end must come after the start',
  })
  .refine(
    (c) => Date.parse(c.endsAt) - Date.parse(c.startsAt) <= correctionLimits.maxDays * 86_400_000,
    { path: ['endsAt'], message: `A correction covers at most ${correctionLimits.maxDays} days` },
  );
export type CorrectionInput = z.infer<typeof CorrectionInput>;

export const Correction = z.object({
  id: z.number().int(),
  monitorId: z.number().int(),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  reason: z.string(),
  createdBy: z.string(),
  createdAt: z.iso.datetime(),
});
export type Correction = z.infer<typeof Correction>;

export const CorrectionList = z.object({ items: z.array(Correction) });
export type CorrectionList = z.infer<typeof CorrectionList>;

export const CorrectionParams = z.strictObject({
  id: z.coerce.number().int().positive(),
  correctionId: z.coerce.number().int().positive(),
});

/** What a report is about. */
export const ReportSubjectKind = z.enum(['monitor', 'tag', 'status_page']);
export type ReportSubjectKind = z.infer<typeof ReportSubjectKind>;

export const ReportRangeKind = z.enum(['month', 'quarter', 'custom']);
export type ReportRangeKind = z.infer<typeof ReportRangeKind>;

const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date like 2026-03-01');

/**
 * A report request. `month` takes `period` 2026-03, `quarter` 2026-Q1, `custom` takes `from`
 * and `to` (dates, `to` inclusive). Dates are calendar days in `timeZone`.
 */
export const ReportQuery = z.strictObject({
  subject: ReportSubjectKind,
  /** Monitor or status page id, or the tag's name. */
  id: z.string().trim().min(1, 'Choose what the report is about').max(200),
  range: ReportRangeKind.default('month'),
  period: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2]|Q[1-4])$/, 'Enter a month like 2026-03 or a quarter like 2026-Q1')
    .optional(),
  from: ymd.optional(),
  to: ymd.optional(),
  timeZone: TimeZone.default('UTC'),
  /** Degraded checks count against availability. */
  degradedIsDown: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
export type ReportQuery = z.input<typeof ReportQuery>;

const Latency = z.object({
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
});

/** One period (a month, or a day of a short range) of one monitor. */
export const ReportPeriod = z.object({
  label: z.string(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  uptime: z.number().nullable(),
  downtimeMs: z.number().int(),
  checks: z.number().int(),
  excludedChecks: z.number().int(),
  /** Milliseconds. */
  latency: Latency,
});
export type ReportPeriod = z.infer<typeof ReportPeriod>;

export const ReportIncident = z.object({
  id: z.number().int(),
  monitorId: z.number().int(),
  title: z.string(),
  startedAt: z.iso.datetime(),
  /** Null while it is still open. */
  resolvedAt: z.iso.datetime().nullable(),
  /** Counted length within the range, maintenance and corrections cut out. */
  durationMs: z.number().int(),
});

export const ReportCorrection = Correction.pick({
  id: true,
  monitorId: true,
  startsAt: true,
  endsAt: true,
  reason: true,
  createdBy: true,
});

export const ReportMonitor = z.object({
  id: z.number().int(),
  name: z.string(),
  uptime: z.number().nullable(),
  downtimeMs: z.number().int(),
  checks: z.number().int(),
  excludedChecks: z.number().int(),
  maintenanceMs: z.number().int(),
  correctedMs: z.number().int(),
  incidents: z.number().int(),
  mttrMs: z.number().int().nullable(),
  mtbfMs: z.number().int().nullable(),
  latency: Latency,
  periods: z.array(ReportPeriod),
});
export type ReportMonitor = z.infer<typeof ReportMonitor>;

/**
 * An SLO whose monitors are all in the report, judged over the report's range (not the SLO's
 * own window) with the SLO's own rules: degraded counted or not, maintenance left out or not.
 */
export const ReportSlo = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The SLO's subject for people: the monitor's name, `tag: api`, or `page / component`. */
  subjectLabel: z.string(),
  target: z.number(),
  window: z.string(),
  checks: z.number().int(),
  badChecks: z.number().int(),
  /** Good checks' share over the report's range, in percent; null without checks. */
  attainment: z.number().nullable(),
  /** The latency objective over the range, when the SLO has one. */
  latency: z
    .object({
      percent: z.number(),
      thresholdMs: z.number(),
      observedMs: z.number().nullable(),
      met: z.boolean().nullable(),
    })
    .nullable(),
  /** Attainment at or above the target and the latency objective met; null without checks. */
  met: z.boolean().nullable(),
});
export type ReportSlo = z.infer<typeof ReportSlo>;

export const Report = z.object({
  subject: z.object({ kind: ReportSubjectKind, id: z.string(), name: z.string() }),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  timeZone: z.string(),
  /** The range's name: 2026-03, 2026-Q1 or 2026-03-01 – 2026-03-15. */
  label: z.string(),
  periodKind: z.enum(['day', 'month']),
  degradedIsDown: z.boolean(),
  /** Over every monitor: checks summed, so a busier monitor weighs more. */
  uptime: z.number().nullable(),
  downtimeMs: z.number().int(),
  incidents: z.number().int(),
  mttrMs: z.number().int().nullable(),
  mtbfMs: z.number().int().nullable(),
  monitors: z.array(ReportMonitor),
  incidentList: z.array(ReportIncident),
  corrections: z.array(ReportCorrection),
  /** SLO met or missed over the range, for every SLO whose monitors are all in the report. */
  slos: z.array(ReportSlo),
  generatedAt: z.iso.datetime(),
});
export type Report = z.infer<typeof Report>;
