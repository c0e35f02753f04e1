import { z } from 'zod';
import { isValidTimeZone } from './zoned-time.js';

/** Service level objectives (issue 20, ADR 52): a promise on a monitor's checks over a window. */
export const sloLimits = { nameMax: 100, perInstance: 20_000 } as const;

/** What an SLO is about: one monitor (a group monitor too), every monitor with a tag, or a status page component. */
export const SloSubject = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('monitor'), monitorId: z.number().int().positive() }),
  z.strictObject({ kind: z.literal('tag'), tag: z.string().trim().min(1).max(50) }),
  z.strictObject({
    kind: z.literal('component'),
    statusPageId: z.number().int().positive(),
    monitorId: z.number().int().positive(),
  }),
]);
export type SloSubject = z.infer<typeof SloSubject>;

/** Calendar windows start at midnight on the 1st in the SLO's zone; rolling ones end now. */
export const sloWindows = ['month', 'quarter', '7d', '28d', '30d'] as const;
export const SloWindow = z.enum(sloWindows);
export type SloWindow = z.infer<typeof SloWindow>;

export const LatencyObjective = z.strictObject({
  /** Share of delivered checks that must be faster than `thresholdMs`, e.g. 95. */
  percent: z.number().gt(0, 'Above 0 %').lt(100, 'Below 100 %'),
  thresholdMs: z.number().int().min(1).max(600_000),
});
export type LatencyObjective = z.infer<typeof LatencyObjective>;

export const SloInput = z.strictObject({
  name: z.string().trim().min(1, 'Name the SLO').max(sloLimits.nameMax),
  subject: SloSubject,
  /** Share of checks that must be good, e.g. 99.9; 100 leaves no budget and is refused. */
  target: z.number().gt(0, 'Above 0 %').lt(100, 'Below 100 %: a 100 % target has no budget'),
  window: SloWindow.default('30d'),
  /** The zone calendar windows begin in; rolling windows ignore it. */
  timeZone: z
    .string()
    .refine(isValidTimeZone, 'Choose a time zone like Europe/Berlin')
    .default('UTC'),
  /** Degraded checks spend budget too. */
  countDegraded: z.boolean().default(false),
  /** Checks while a maintenance window covers the monitor count for nothing. */
  excludeMaintenance: z.boolean().default(true),
  latency: LatencyObjective.nullable().default(null),
  /** Multi-window burn-rate alerts to the subject's monitors' channels. */
  alerts: z.boolean().default(true),
});
export type SloInput = z.input<typeof SloInput>;
export type SloSettings = z.output<typeof SloInput>;

export const SloHealth = z.enum(['healthy', 'at_risk', 'exhausted', 'no_data']);
export type SloHealth = z.infer<typeof SloHealth>;

/** One burn-rate rule of the SRE workbook: `budgetPercent` of the budget spent within `longMs`. */
export const BurnRule = z.object({
  budgetPercent: z.number(),
  longMs: z.number().int(),
  shortMs: z.number().int(),
  severity: z.enum(['page', 'ticket']),
  /** The burn rate both windows must reach. */
  threshold: z.number(),
  longBurn: z.number().nullable(),
  shortBurn: z.number().nullable(),
  breached: z.boolean(),
});
export type BurnRule = z.infer<typeof BurnRule>;

export const SloStatus = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  checks: z.number().int(),
  badChecks: z.number().int(),
  /** Good checks' share, in percent; null without checks. */
  attainment: z.number().nullable(),
  budgetMs: z.number(),
  spentMs: z.number(),
  /** Negative once overspent. */
  remainingMs: z.number(),
  remainingPercent: z.number(),
  /** Burn rate over the last hour: 1 spends the budget exactly over the window. */
  burnRate: z.number().nullable(),
  /** At the last hour's burn rate; null when nothing burns. */
  exhaustionMs: z.number().nullable(),
  health: SloHealth,
  rules: z.array(BurnRule),
  latency: z
    .object({
      /** The observed latency at the objective's percentile, ms; null without timed checks. */
      observedMs: z.number().nullable(),
      met: z.boolean().nullable(),
    })
    .nullable(),
});
export type SloStatus = z.infer<typeof SloStatus>;

export const Slo = z.object({
  id: z.number().int(),
  name: z.string(),
  subject: SloSubject,
  /** The subject for people: the monitor's name, `tag: api`, or `page / component`. */
  subjectLabel: z.string(),
  target: z.number(),
  window: SloWindow,
  timeZone: z.string(),
  countDegraded: z.boolean(),
  excludeMaintenance: z.boolean(),
  latency: LatencyObjective.nullable(),
  alerts: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  status: SloStatus,
});
export type Slo = z.infer<typeof Slo>;

export const SloList = z.object({ items: z.array(Slo) });
export type SloList = z.infer<typeof SloList>;

export const SloListQuery = z.object({
  monitorId: z.coerce.number().int().positive().optional(),
});
export type SloListQuery = z.infer<typeof SloListQuery>;

export const SloIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
