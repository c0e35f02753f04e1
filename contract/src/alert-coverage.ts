import { z } from 'zod';
import { CheckDetails, CheckErrorCode, CheckOutcome, Phases } from './checks.js';

/** Monitors that would alert nobody: no enabled channel is linked to them. */
export const ChannelCoverage = z.object({
  /** Every monitor. */
  monitors: z.number().int(),
  /** The monitors without an enabled channel, by name. */
  uncovered: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type ChannelCoverage = z.infer<typeof ChannelCoverage>;

/** POST /api/v1/notification-channels/:id/attach: link the channel to many monitors at once. */
export const ChannelAttachInput = z.discriminatedUnion('scope', [
  z.strictObject({ scope: z.literal('all') }),
  z.strictObject({
    scope: z.literal('tag'),
    tag: z.string().trim().min(1, 'Choose a tag').max(40, 'Tags are limited to 40 characters'),
  }),
]);
export type ChannelAttachInput = z.input<typeof ChannelAttachInput>;

export const ChannelAttachResult = z.object({
  /** Monitors that got the channel now. */
  attached: z.number().int(),
  /** Monitors in the scope (those that already had it included). */
  matched: z.number().int(),
});
export type ChannelAttachResult = z.infer<typeof ChannelAttachResult>;

/** What one trial check of unsaved settings saw; nothing of it is stored. */
export const MonitorTrialResult = z.object({
  outcome: CheckOutcome,
  latencyMs: z.number().nullable(),
  phases: Phases,
  httpStatus: z.number().int().nullable(),
  errorCode: CheckErrorCode.nullable(),
  errorMessage: z.string().nullable(),
  responseSize: z.number().int().nullable(),
  details: CheckDetails,
});
export type MonitorTrialResult = z.infer<typeof MonitorTrialResult>;
