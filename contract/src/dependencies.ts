import { z } from 'zod';
import { MonitorStatus } from './monitors.js';

/** Issue 18 item 6, ADR 41: a monitor's alerts are held while a parent of it is down. */
export const dependencyLimits = { parentsMax: 20 } as const;

/**
 * How a monitor's down and up alerts are grouped (ADR 42): with the other monitors of `tag`
 * when set, else with its dependency root; collected for `windowS` seconds.
 */
export const AlertGrouping = z.strictObject({
  tag: z.string().trim().min(1, 'Choose a tag').max(50).nullable().default(null),
  windowS: z
    .number()
    .int('Whole seconds only')
    .min(1, 'The window is at least 1 second')
    .max(3600, 'The window is at most an hour')
    .default(120),
});
export type AlertGrouping = z.infer<typeof AlertGrouping>;

/** Replaces a monitor's parents, and its grouping when given. */
export const MonitorParentsInput = z.strictObject({
  parentIds: z
    .array(z.number().int().positive('Choose a monitor'))
    .max(dependencyLimits.parentsMax, 'At most 20 parents'),
  grouping: AlertGrouping.optional(),
});
export type MonitorParentsInput = z.infer<typeof MonitorParentsInput>;

export const DependencyMonitor = z.object({
  id: z.number().int(),
  name: z.string(),
  status: MonitorStatus,
});
export type DependencyMonitor = z.infer<typeof DependencyMonitor>;

/** A monitor's parents and the monitors that depend on it. */
export const MonitorDependencies = z.object({
  parents: z.array(DependencyMonitor),
  children: z.array(DependencyMonitor),
  grouping: z.object({ tag: z.string().nullable(), windowS: z.number().int() }),
});
export type MonitorDependencies = z.infer<typeof MonitorDependencies>;

/** Monitors shown as "down, parent X down": down while a parent of theirs is down. */
export const HeldMonitors = z.object({
  items: z.array(
    z.object({
      monitorId: z.number().int(),
      parent: z.object({ id: z.number().int(), name: z.string() }),
    }),
  ),
});
export type HeldMonitors = z.infer<typeof HeldMonitors>;
