import { z } from 'zod';
import { isValidTimeZone } from './zoned-time.js';

/** On-call schedules (issue 18 item 4, ADR 39). */
const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time as HH:MM, 00:00 to 23:59');
const DATE = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD');

export const RotationLayerInput = z.strictObject({
  name: z.string().trim().min(1, 'Name the layer').max(100, 'At most 100 characters'),
  /** People in rotation order (user ids). */
  members: z
    .array(z.number().int().positive())
    .min(1, 'Add at least one person')
    .max(50, 'At most 50 people')
    .refine((m) => new Set(m).size === m.length, 'Each person once'),
  startDate: DATE,
  handoff: HHMM.default('09:00'),
  lengthDays: z.number().int().min(1, 'At least a day').max(28, 'At most 4 weeks').default(7),
  /** Active only on these weekdays (0 Sunday … 6 Saturday) between these local times. */
  restriction: z
    .strictObject({
      days: z.array(z.number().int().min(0).max(6)).min(1, 'Choose at least one day'),
      from: HHMM,
      to: HHMM,
    })
    .refine((r) => r.from !== r.to, 'The window needs a length')
    .nullable()
    .default(null),
});
export type RotationLayerInput = z.infer<typeof RotationLayerInput>;

export const OnCallScheduleInput = z.strictObject({
  name: z.string().trim().min(1, 'Name the schedule').max(100, 'At most 100 characters'),
  timeZone: z.string().refine(isValidTimeZone, 'Choose a time zone'),
  /** Later layers win where they are active. */
  layers: z
    .array(RotationLayerInput)
    .min(1, 'Add a layer')
    .max(10, 'At most 10 layers')
    .superRefine((layers, ctx) => {
      // Shifts name the layer they come from: two alike would be told apart by nobody.
      const seen = new Set<string>();
      layers.forEach((l, i) => {
        const key = l.name.trim().toLowerCase();
        if (seen.has(key))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'name'],
            message: 'Another layer has this name',
          });
        seen.add(key);
      });
    }),
});
export type OnCallScheduleInput = z.infer<typeof OnCallScheduleInput>;

export const OnCallOverride = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
});
export type OnCallOverride = z.infer<typeof OnCallOverride>;

export const OnCallOverrideInput = z
  .strictObject({
    userId: z.number().int().positive(),
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
  })
  .refine((o) => Date.parse(o.from) < Date.parse(o.to), {
    message: 'The end must be after the start',
    path: ['to'],
  });
export type OnCallOverrideInput = z.infer<typeof OnCallOverrideInput>;

export const OnCallSchedule = OnCallScheduleInput.extend({
  id: z.number().int(),
  overrides: z.array(OnCallOverride),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type OnCallSchedule = z.infer<typeof OnCallSchedule>;

export const OnCallScheduleList = z.object({ items: z.array(OnCallSchedule) });

export const OnCallShift = z.object({
  userId: z.number().int(),
  userName: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  /** "override", or the layer's name. */
  source: z.string(),
});
export type OnCallShift = z.infer<typeof OnCallShift>;

export const OnCallNow = z.object({
  now: OnCallShift.nullable(),
  next: OnCallShift.nullable(),
  /** The schedule's iCalendar feed (a secret URL: anyone with it sees the shifts). */
  feedUrl: z.string(),
});
export type OnCallNow = z.infer<typeof OnCallNow>;

export const OnCallIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
export const OnCallOverrideParams = z.strictObject({
  id: z.coerce.number().int().positive(),
  overrideId: z.coerce.number().int().positive(),
});

/** One stretch of a timeline row: a person, or nobody (userId null). */
export const OnCallTimelineShift = z.object({
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  /** "override", the layer's name, or null where nobody is on call. */
  source: z.string().nullable(),
});
export type OnCallTimelineShift = z.infer<typeof OnCallTimelineShift>;

export const OnCallTimelineQuery = z.strictObject({
  days: z.coerce.number().int().min(1, 'At least a day').max(28, 'At most 4 weeks').default(14),
});

/** GET /oncall-schedules/:id/timeline: each layer on its own, then who is on call in the end. */
export const OnCallTimeline = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  timeZone: z.string(),
  layers: z.array(z.object({ name: z.string(), shifts: z.array(OnCallTimelineShift) })),
  /** Overrides applied and later layers winning: who gets paged. */
  final: z.array(OnCallTimelineShift),
});
export type OnCallTimeline = z.infer<typeof OnCallTimeline>;
