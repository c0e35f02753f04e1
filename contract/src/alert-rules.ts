import { z } from 'zod';

/** SPEC §9 defaults for a monitor's alerting. */
export const alertDefaults = {
  /** Confirmed-down checks before the down alert goes out (1: at the DOWN itself). */
  afterChecks: 1,
  /** Re-notify every N checks while down; null is off (SPEC §9). */
  renotifyEveryChecks: null,
  notifyRecovery: true,
  notifyDegraded: true,
  /** Flap protection: more than `flapThreshold` status changes within `flapWindowS`. */
  flapThreshold: 5,
  flapWindowS: 900,
} as const;

/** Per-monitor alert rules (issue 5 item 3); every field has a default. */
export const AlertRules = z.strictObject({
  afterChecks: z
    .number()
    .int('Whole checks only')
    .min(1, 'Alert after at least 1 confirmed failure')
    .max(100, 'At most 100 checks')
    .default(alertDefaults.afterChecks),
  renotifyEveryChecks: z
    .number()
    .int('Whole checks only')
    .min(1, 'Re-notify at most every check')
    .max(10_000, 'At most every 10,000 checks')
    .nullable()
    .default(alertDefaults.renotifyEveryChecks),
  /**
   * How reminders space out while down (issue 18 item 9): `fixed` every N checks, `linear` N,
   * 2N, 3N… checks after the previous one, `exponential` N, 2N, 4N…
   */
  renotifyBackoff: z.enum(['fixed', 'linear', 'exponential']).default('fixed'),
  notifyRecovery: z.boolean().default(alertDefaults.notifyRecovery),
  notifyDegraded: z.boolean().default(alertDefaults.notifyDegraded),
  /**
   * Alert when it goes REGIONAL (some of its locations fail, fewer than its quorum), naming
   * them, and when it leaves it (ADR 70). Off by default: a lone failing place may be noise.
   */
  notifyRegional: z.boolean().default(false),
  flapThreshold: z
    .number()
    .int('Whole numbers only')
    .min(2, 'At least 2 changes')
    .max(100, 'At most 100 changes')
    .default(alertDefaults.flapThreshold),
  flapWindowS: z
    .number()
    .int('Whole seconds only')
    .min(60, 'The window is at least 60 seconds')
    .max(86_400, 'The window is at most a day')
    .default(alertDefaults.flapWindowS),
  /** Critical alerts break through quiet hours; warnings may wait (issue 18 item 5). */
  severity: z.enum(['critical', 'warning']).default('critical'),
  /**
   * Who hears about an outage and when (issue 18, ADR 39); null: the monitor's channels at
   * once, as before policies existed.
   */
  escalationPolicyId: z.number().int().positive('Choose a policy').nullable().default(null),
});
export type AlertRules = z.infer<typeof AlertRules>;
export type AlertRulesInput = z.input<typeof AlertRules>;

export const defaultAlertRules: AlertRules = AlertRules.parse({});
