import { z } from 'zod';
import { MaintenanceSchedule, TimeZone, maintenanceLimits } from './maintenance.js';
import { limits, MonitorStatus, MonitorType } from './monitors.js';

/** Monitors named one by one in a bulk action: the ids a person ticked. */
export const bulkLimits = { idsMax: 100_000 } as const;

/**
 * Which monitors a bulk action acts on: the ids ticked, or every monitor matching the
 * dashboard's filters at the moment the server runs the action (most of them never loaded).
 */
export const MonitorSelection = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('ids'),
      ids: z
        .array(z.number().int().positive())
        .min(1, 'Select at least one monitor')
        .max(bulkLimits.idsMax, 'At most 100,000 monitors at once'),
    }),
    z.strictObject({
      kind: z.literal('filter'),
      status: MonitorStatus.optional(),
      tag: z.string().max(100).optional(),
      type: MonitorType.optional(),
      q: z.string().max(200).optional(),
    }),
  ],
  { error: 'Choose monitors by id or by filter' },
);
export type MonitorSelection = z.infer<typeof MonitorSelection>;

const BulkTag = z
  .string()
  .trim()
  .min(1, 'Tags cannot be empty')
  .max(limits.tagMax, 'Tags are limited to 40 characters');
const BulkTags = z
  .array(BulkTag)
  .min(1, 'Enter at least one tag')
  .max(limits.tagsMax, 'At most 20 tags');

/** What to do to every selected monitor. */
export const MonitorBulkAction = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('pause') }),
    z.strictObject({ kind: z.literal('resume') }),
    z.strictObject({ kind: z.literal('delete') }),
    z.strictObject({ kind: z.literal('tag'), tags: BulkTags }),
    z.strictObject({ kind: z.literal('untag'), tags: BulkTags }),
    z.strictObject({
      kind: z.literal('channels'),
      channelIds: z
        .array(z.number().int().positive('Choose a channel'))
        .max(50, 'At most 50 channels'),
    }),
    z.strictObject({
      kind: z.literal('interval'),
      interval: z
        .number()
        .int('Whole seconds only')
        .min(limits.intervalMin, 'Check at most every 10 seconds')
        .max(limits.intervalMax, 'Check at least once a day (86,400 seconds)'),
    }),
    z.strictObject({
      kind: z.literal('maintenance'),
      title: z
        .string()
        .trim()
        .min(1, 'Give the window a title')
        .max(maintenanceLimits.titleMax, 'Titles are limited to 100 characters'),
      timezone: TimeZone,
      schedule: MaintenanceSchedule,
    }),
  ],
  { error: 'Choose an action' },
);
export type MonitorBulkAction = z.infer<typeof MonitorBulkAction>;
export type MonitorBulkKind = MonitorBulkAction['kind'];

export const MonitorBulkInput = z.strictObject({
  selection: MonitorSelection,
  action: MonitorBulkAction,
});
export type MonitorBulkInput = z.infer<typeof MonitorBulkInput>;

/**
 * What a bulk action did, monitor by monitor: nothing is dropped silently. Monitors deleted
 * meanwhile are `notFound`; those managed by configuration files are left alone (`managed`);
 * `refused` names those the action cannot apply to and why (a timeout not below a new interval).
 */
export const MonitorBulkResult = z.object({
  action: z.enum([
    'pause',
    'resume',
    'delete',
    'tag',
    'untag',
    'channels',
    'interval',
    'maintenance',
  ]),
  /** Every monitor the selection named when the action ran. */
  selected: z.number().int(),
  done: z.array(z.number().int()),
  notFound: z.array(z.number().int()),
  managed: z.array(z.number().int()),
  refused: z.array(z.object({ id: z.number().int(), reason: z.string() })),
  /** The maintenance window created, for `maintenance`. */
  maintenanceId: z.number().int().nullable(),
});
export type MonitorBulkResult = z.infer<typeof MonitorBulkResult>;

/** A clone's name: the source's with " (copy)", kept within the 100-character limit. */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  return name.length + suffix.length <= limits.nameMax
    ? `${name}${suffix}`
    : `${name.slice(0, limits.nameMax - suffix.length - 1)}…${suffix}`;
}
