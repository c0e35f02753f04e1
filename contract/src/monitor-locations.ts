import { z } from 'zod';
import { CheckOutcome } from './checks.js';

/**
 * A location a monitor may be checked from (the monitor form's choices), as every signed-in
 * role may see it: its name and whether it reports, never its probes or tokens (ADR 70).
 */
export const LocationChoice = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string().nullable(),
  /** Null for `local` (this server); false while every probe of the location is silent. */
  online: z.boolean().nullable(),
});
export type LocationChoice = z.infer<typeof LocationChoice>;

export const LocationChoices = z.object({ items: z.array(LocationChoice) });
export type LocationChoices = z.infer<typeof LocationChoices>;

/**
 * Where a monitor is checked and its quorum (ADR 58): DOWN when `quorum` of its locations fail
 * (null: a majority of those that reported), REGIONAL when some but fewer fail.
 */
export const MonitorLocationsInput = z.strictObject({
  locations: z
    .array(z.string().trim().min(1).max(64))
    .min(1, 'Choose at least one location')
    .max(32, 'At most 32 locations'),
  quorum: z
    .number()
    .int('Whole locations only')
    .min(1, 'At least 1 location')
    .max(32, 'At most 32 locations')
    .nullable()
    .default(null),
});
export type MonitorLocationsInput = z.input<typeof MonitorLocationsInput>;

/** One location's live verdict and figures on a monitor. */
export const LocationFigures = z.object({
  id: z.string(),
  name: z.string(),
  /** Its latest verdict; `stale` once older than the interval and grace; `none` before one. */
  status: z.union([CheckOutcome, z.enum(['stale', 'none'])]),
  latencyMs: z.number().nullable(),
  checkedAt: z.iso.datetime().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** Percent of this location's delivered checks over the last 24 hours; null without checks. */
  uptime24h: z.number().nullable(),
  checks24h: z.number().int(),
});
export type LocationFigures = z.infer<typeof LocationFigures>;

export const MonitorLocations = z.object({
  locations: z.array(LocationFigures),
  /** The monitor's own k; null: a majority of the locations that reported. */
  quorum: z.number().int().nullable(),
  /** The k applied now, and the names of the locations whose fresh verdict is down. */
  k: z.number().int(),
  failing: z.array(z.string()),
});
export type MonitorLocations = z.infer<typeof MonitorLocations>;

/** Latency by location over the last hours, for the monitor page's split chart. */
export const LocationLatency = z.object({
  series: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** [epoch ms, latency ms or null for a failed check], oldest first. */
      points: z.array(z.tuple([z.number(), z.number().nullable()])),
    }),
  ),
});
export type LocationLatency = z.infer<typeof LocationLatency>;

export const LocationLatencyQuery = z.strictObject({
  hours: z.coerce.number().int().min(1).max(48).default(6),
});
