import { z } from 'zod';
import { isValidTimeZone, parseLocal } from './zoned-time.js';

export const maintenanceLimits = {
  titleMax: 100,
  descriptionMax: 2000,
  expressionMax: 500,
  durationMin: 1,
  /** One week. */
  durationMax: 10_080,
  /** Bulk actions put every monitor matching a filter in one window (issue 17: 2,000 and more). */
  monitorsMax: 10_000,
  /** Occurrences listed ahead on a window and in the preview. */
  upcoming: 5,
} as const;

export const MaintenanceState = z.enum(['scheduled', 'active', 'ended', 'cancelled']);
export type MaintenanceState = z.infer<typeof MaintenanceState>;

export const TimeZone = z
  .string({ error: 'Choose a time zone' })
  .trim()
  .min(1, 'Choose a time zone')
  .refine(isValidTimeZone, 'Choose a time zone from the list, e.g. Europe/Berlin');

/** A wall-clock reading in the window's time zone, `YYYY-MM-DDTHH:mm`. */
export const LocalDateTime = z
  .string({ error: 'Enter a date and time' })
  .refine((v) => parseLocal(v) !== null, 'Enter a date and time like 2026-03-29T02:30');

const Instant = z.iso.datetime({ offset: true, error: 'Enter a date and time' });

export const MaintenanceScope = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('all') }),
    z.strictObject({
      kind: z.literal('monitors'),
      monitorIds: z
        .array(z.number().int().positive())
        .min(1, 'Choose at least one monitor, or all monitors')
        .max(maintenanceLimits.monitorsMax, 'At most 10,000 monitors; choose all monitors instead'),
    }),
  ],
  { error: 'Choose all monitors or a list of monitors' },
);
export type MaintenanceScope = z.infer<typeof MaintenanceScope>;

const duration = z
  .number({ error: 'Enter a duration in minutes' })
  .int('Whole minutes only')
  .min(maintenanceLimits.durationMin, 'A window lasts at least 1 minute')
  .max(maintenanceLimits.durationMax, 'A window lasts at most 7 days (10,080 minutes)');

const recurring = {
  /**
   * A five-field cron expression (minute hour day month weekday) or an RFC 5545 RRULE
   * (`FREQ=WEEKLY;BYDAY=SU;BYHOUR=2`), read in the window's time zone. The contract checks the
   * shape only; the server parses it and answers with a field error when it does not.
   */
  expression: z
    .string({ error: 'Enter a rule' })
    .trim()
    .min(1, 'Enter a rule')
    .max(maintenanceLimits.expressionMax, 'Rules are limited to 500 characters'),
  durationMinutes: duration,
  /** First moment an occurrence may start, local; an RRULE counts from it (its DTSTART). */
  from: LocalDateTime,
  /** Last moment an occurrence may start, local; null: no end. */
  until: LocalDateTime.nullable().default(null),
};

function untilAfterFrom(s: { from: string; until: string | null }, ctx: z.RefinementCtx) {
  if (s.until === null) return;
  const from = parseLocal(s.from);
  const until = parseLocal(s.until);
  if (from !== null && until !== null && until <= from) {
    ctx.addIssue({ code: 'custom', path: ['until'], message: 'The end must be after the start' });
  }
}

export const MaintenanceSchedule = z.discriminatedUnion(
  'kind',
  [
    z
      .strictObject({ kind: z.literal('once'), startsAt: Instant, endsAt: Instant })
      .superRefine((s, ctx) => {
        if (Date.parse(s.endsAt) <= Date.parse(s.startsAt)) {
          ctx.addIssue({
            code: 'custom',
            path: ['endsAt'],
            message: 'The end must be after the start',
          });
        }
      }),
    z.strictObject({ kind: z.literal('cron'), ...recurring }).superRefine(untilAfterFrom),
    z.strictObject({ kind: z.literal('rrule'), ...recurring }).superRefine(untilAfterFrom),
  ],
  { error: 'Choose one-off, cron or RRULE' },
);
export type MaintenanceSchedule = z.infer<typeof MaintenanceSchedule>;

const title = z
  .string({ error: 'Give the window a title' })
  .trim()
  .min(1, 'Give the window a title')
  .max(maintenanceLimits.titleMax, 'Titles are limited to 100 characters');

/** What a client sends to create or replace a maintenance window. */
export const MaintenanceInput = z.strictObject({
  title,
  description: z
    .string()
    .max(maintenanceLimits.descriptionMax, 'Descriptions are limited to 2,000 characters')
    .default(''),
  timezone: TimeZone,
  scope: MaintenanceScope,
  schedule: MaintenanceSchedule,
});
export type MaintenanceInput = z.infer<typeof MaintenanceInput>;
export type MaintenanceDraft = z.input<typeof MaintenanceInput>;

/** The part of a window the preview needs: when, not what. */
export const MaintenancePreviewInput = z.strictObject({
  timezone: TimeZone,
  schedule: MaintenanceSchedule,
});
export type MaintenancePreviewInput = z.infer<typeof MaintenancePreviewInput>;

export const Occurrence = z.object({ startsAt: z.iso.datetime(), endsAt: z.iso.datetime() });
export type Occurrence = z.infer<typeof Occurrence>;

export const MaintenancePreview = z.object({
  state: MaintenanceState,
  /** The next occurrences that have not ended, the running one first. */
  occurrences: z.array(Occurrence),
});
export type MaintenancePreview = z.infer<typeof MaintenancePreview>;

export const MaintenanceWindow = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  timezone: z.string(),
  scope: MaintenanceScope,
  schedule: MaintenanceSchedule,
  state: MaintenanceState,
  /** Next occurrences not yet ended (the running one first); empty once ended or cancelled. */
  nextOccurrences: z.array(Occurrence),
  /** When the running occurrence ends (overlapping ones merged); null unless active. */
  activeUntil: z.iso.datetime().nullable(),
  cancelledAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>;

export const MaintenanceList = z.object({ items: z.array(MaintenanceWindow) });
export type MaintenanceList = z.infer<typeof MaintenanceList>;

export const MaintenanceListQuery = z.strictObject({ state: MaintenanceState.optional() });

export const MaintenanceIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
