import { z } from 'zod';
import { isValidTimeZone } from './zoned-time.js';

/**
 * Escalation policies (issue 18 item 2): ordered steps, each waiting some minutes and then
 * notifying targets, repeated up to `repeat` more times until someone acknowledges or the
 * monitor recovers. Targets are a tagged union so people and schedules join as new kinds.
 */
export const escalationLimits = {
  nameMax: 100,
  stepsMax: 10,
  targetsMax: 20,
  waitMinutesMax: 1440,
  repeatMax: 9,
} as const;

export const EscalationTarget = z.discriminatedUnion('kind', [
  /** One notification channel by id. */
  z.strictObject({ kind: z.literal('channel'), channelId: z.number().int().positive() }),
  /** The channels linked to the monitor that went down (its own list, as without a policy). */
  z.strictObject({ kind: z.literal('monitor_channels') }),
  /** One person, through each of their verified contact methods (ADR 60). */
  z.strictObject({ kind: z.literal('user'), userId: z.number().int().positive() }),
  /** Whoever is on call in the schedule when the step fires. */
  z.strictObject({ kind: z.literal('schedule'), scheduleId: z.number().int().positive() }),
  /** Every active person with a verified contact method. */
  z.strictObject({ kind: z.literal('everyone') }),
]);
export type EscalationTarget = z.infer<typeof EscalationTarget>;

export const EscalationStep = z.strictObject({
  /** Minutes after the previous step (the first: after the DOWN alert) before this one fires. */
  waitMinutes: z
    .number()
    .int('Whole minutes only')
    .min(0, 'The wait cannot be negative')
    .max(escalationLimits.waitMinutesMax, 'At most a day (1,440 minutes)'),
  targets: z
    .array(EscalationTarget)
    .min(1, 'Notify at least one target')
    .max(escalationLimits.targetsMax, 'At most 20 targets'),
});
export type EscalationStep = z.infer<typeof EscalationStep>;

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time as HH:MM');

/** Local weekdays and times when warnings wait (ADR 39); over midnight: to before from. */
export const QuietHoursWindow = z.strictObject({
  days: z.array(z.number().int().min(0).max(6)).min(1, 'Choose at least one day'),
  from: HHMM,
  to: HHMM,
  timeZone: z.string().refine(isValidTimeZone, 'Choose a time zone'),
});
export type QuietHoursWindow = z.infer<typeof QuietHoursWindow>;

export const EscalationPolicyInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'Name the policy')
    .max(escalationLimits.nameMax, 'At most 100 characters'),
  steps: z
    .array(EscalationStep)
    .min(1, 'Add at least one step')
    .max(escalationLimits.stepsMax, 'At most 10 steps'),
  /** How many more times the whole policy runs after its last step while nobody acknowledges. */
  repeat: z
    .number()
    .int('Whole numbers only')
    .min(0, 'Repeat cannot be negative')
    .max(escalationLimits.repeatMax, 'At most 9 repeats')
    .default(0),
  /**
   * Time routing: a warning monitor's alerts from this policy wait for the end of these
   * windows (never dropped); critical ones go at once.
   */
  quietHours: z.array(QuietHoursWindow).max(14, 'At most 14 windows').default([]),
});
export type EscalationPolicyInput = z.infer<typeof EscalationPolicyInput>;

export const EscalationPolicy = EscalationPolicyInput.extend({
  id: z.number().int(),
  /** Monitors whose alert rules name this policy. */
  monitorIds: z.array(z.number().int()),
  /**
   * Targets that no longer resolve (a person or schedule deleted since): such a step notifies
   * the monitor's channels instead and admins are told (ADR 60). Fix the step.
   */
  brokenTargets: z.array(z.object({ path: z.string(), message: z.string() })).default([]),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type EscalationPolicy = z.infer<typeof EscalationPolicy>;

export const EscalationPolicyList = z.object({ items: z.array(EscalationPolicy) });
export type EscalationPolicyList = z.infer<typeof EscalationPolicyList>;

export const EscalationPolicyIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
export const EscalationIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

/** How an acknowledgement arrived. `chat` is reserved for channel buttons (none yet). */
export const AckVia = z.enum(['link', 'ui', 'api']);
export type AckVia = z.infer<typeof AckVia>;

export const Acknowledgement = z.object({
  at: z.iso.datetime(),
  /** Who: a person's or key's name, or the channel a link was sent through. */
  by: z.string(),
  via: AckVia,
});
export type Acknowledgement = z.infer<typeof Acknowledgement>;

/** One outage under a policy: where its escalation stands. */
export const Escalation = z.object({
  id: z.number().int(),
  monitorId: z.number().int(),
  policyId: z.number().int().nullable(),
  startedAt: z.iso.datetime(),
  /** Next step (0-based) and round of the policy; null once it ended. */
  nextStep: z.number().int().nullable(),
  cycle: z.number().int(),
  nextDueAt: z.iso.datetime().nullable(),
  /** Channels notified so far; recovery goes to each of them. */
  notifiedChannelIds: z.array(z.number().int()),
  /** People notified so far through their contact methods; recovery reaches them too. */
  notifiedUserIds: z.array(z.number().int()).default([]),
  /**
   * Targets a step could not reach (a person without a verified contact method, nobody on
   * call): the monitor's channels heard it instead, and admins were told in the audit log.
   */
  warnings: z.array(z.string()).default([]),
  acknowledgement: Acknowledgement.nullable(),
  resolvedAt: z.iso.datetime().nullable(),
});
export type Escalation = z.infer<typeof Escalation>;

export const EscalationList = z.object({ items: z.array(Escalation) });
export type EscalationList = z.infer<typeof EscalationList>;

export const EscalationQuery = z.strictObject({
  monitorId: z.coerce.number().int().positive().optional(),
  /** Only escalations still running (not acknowledged, not resolved). */
  open: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type EscalationQuery = z.infer<typeof EscalationQuery>;
