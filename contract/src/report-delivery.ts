import { z } from 'zod';
import { TimeZone } from './maintenance.js';
import { ReportSubjectKind } from './reports.js';

/** Monthly report emails and signed customer links (issue 20 item 3, ADR 65). */
export const reportDeliveryLimits = { nameMax: 120, recipientsMax: 50, linkDaysMax: 3660 } as const;

export const ReportFileFormat = z.enum(['pdf', 'csv']);
export type ReportFileFormat = z.infer<typeof ReportFileFormat>;

/** What a schedule or link reports on, as the reports API takes it. */
export const ReportSubjectRef = z.strictObject({
  kind: ReportSubjectKind,
  /** Monitor or status page id, or the tag's name. */
  id: z.string().trim().min(1, 'Choose what the report is about').max(200),
});
export type ReportSubjectRef = z.infer<typeof ReportSubjectRef>;

const name = z
  .string({ error: 'Enter a name' })
  .trim()
  .min(1, 'Enter a name')
  .max(reportDeliveryLimits.nameMax);

/**
 * A monthly report email: on day 1 of each month (in `timeZone`) the previous calendar month's
 * report goes to the chosen users and addresses, with the PDF and/or CSV attached.
 */
export const ReportScheduleInput = z
  .strictObject({
    name,
    subject: ReportSubjectRef,
    timeZone: TimeZone.default('UTC'),
    degradedIsDown: z.boolean().default(false),
    formats: z
      .array(ReportFileFormat)
      .min(1, 'Attach the PDF, the CSV or both')
      .transform((f) => [...new Set(f)].sort()),
    userIds: z
      .array(z.number().int().positive())
      .max(reportDeliveryLimits.recipientsMax)
      .default([]),
    emails: z
      .array(z.email({ error: 'Enter an email address' }).trim().toLowerCase())
      .max(reportDeliveryLimits.recipientsMax)
      .default([]),
    enabled: z.boolean().default(true),
  })
  .refine((s) => s.userIds.length + s.emails.length > 0, {
    path: ['emails'],
    message: 'Choose at least one person or enter an address',
  });
export type ReportScheduleInput = z.input<typeof ReportScheduleInput>;

export const ReportSchedule = z.object({
  id: z.number().int(),
  name: z.string(),
  subject: z.object({ kind: ReportSubjectKind, id: z.string() }),
  timeZone: z.string(),
  degradedIsDown: z.boolean(),
  formats: z.array(ReportFileFormat),
  userIds: z.array(z.number().int()),
  emails: z.array(z.string()),
  enabled: z.boolean(),
  /** The next month to be sent (YYYY-MM) and when: day 1 of the month after, in the zone. */
  nextPeriod: z.string(),
  nextSendAt: z.iso.datetime(),
  /** Sent, waiting and given-up messages of the latest month queued. */
  lastPeriod: z
    .object({ period: z.string(), sent: z.number(), pending: z.number(), failed: z.number() })
    .nullable(),
  lastError: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.iso.datetime(),
});
export type ReportSchedule = z.infer<typeof ReportSchedule>;

export const ReportScheduleList = z.object({ items: z.array(ReportSchedule) });
export type ReportScheduleList = z.infer<typeof ReportScheduleList>;

export const ReportLinkRange = z.enum(['last_month', 'month', 'quarter', 'custom']);
export type ReportLinkRange = z.infer<typeof ReportLinkRange>;

const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date like 2026-03-01');

/**
 * A read-only link for a customer: one subject over a fixed range, or `last_month` (the
 * previous calendar month whenever it is opened). Optional expiry.
 */
export const ReportLinkInput = z
  .strictObject({
    name,
    subject: ReportSubjectRef,
    range: ReportLinkRange.default('last_month'),
    period: z
      .string()
      .regex(
        /^\d{4}-(0[1-9]|1[0-2]|Q[1-4])$/,
        'Enter a month like 2026-03 or a quarter like 2026-Q1',
      )
      .optional(),
    from: ymd.optional(),
    to: ymd.optional(),
    timeZone: TimeZone.default('UTC'),
    degradedIsDown: z.boolean().default(false),
    expiresAt: z.iso
      .datetime({ error: 'Enter when the link stops working' })
      .nullable()
      .default(null),
  })
  .refine((l) => l.range !== 'custom' || (l.from && l.to), {
    path: ['from'],
    message: 'Enter both dates',
  })
  .refine((l) => (l.range !== 'month' && l.range !== 'quarter') || l.period, {
    path: ['period'],
    message: 'Choose the month or quarter',
  });
export type ReportLinkInput = z.input<typeof ReportLinkInput>;

export const ReportLink = z.object({
  id: z.number().int(),
  name: z.string(),
  subject: z.object({ kind: ReportSubjectKind, id: z.string() }),
  range: ReportLinkRange,
  period: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  timeZone: z.string(),
  degradedIsDown: z.boolean(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  lastViewedAt: z.iso.datetime().nullable(),
  state: z.enum(['active', 'expired', 'revoked']),
  createdBy: z.string(),
  createdAt: z.iso.datetime(),
});
export type ReportLink = z.infer<typeof ReportLink>;

export const ReportLinkList = z.object({ items: z.array(ReportLink) });
export type ReportLinkList = z.infer<typeof ReportLinkList>;

/** The link's address is shown once, when it is made: only its hash is stored. */
export const ReportLinkCreated = z.object({ link: ReportLink, url: z.string() });
export type ReportLinkCreated = z.infer<typeof ReportLinkCreated>;

export const ReportDeliveryIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
