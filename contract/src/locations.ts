import { z } from 'zod';

/** The id of the built-in scheduler's location: renameable, never deleted. */
export const LOCAL_LOCATION_ID = 'local';

/** A location's name, region label and optional coordinates, as an admin enters them. */
export const LocationInput = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(60),
  region: z.string().trim().max(60).nullish(),
  latitude: z.number().min(-90).max(90).nullish(),
  longitude: z.number().min(-180).max(180).nullish(),
});
export type LocationInput = z.infer<typeof LocationInput>;

/** A live token of a probe: its first characters only, never the secret. */
export const ProbeTokenView = z.object({
  id: z.number().int(),
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  /** Set once the token was rotated: it keeps working until then (the overlap). */
  expiresAt: z.iso.datetime().nullable(),
});
export type ProbeTokenView = z.infer<typeof ProbeTokenView>;

/** One probe of a location and what its last heartbeat said (nulls before the first). */
export const ProbeView = z.object({
  id: z.number().int(),
  locationId: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  /** A heartbeat within the offline window (30 s). */
  online: z.boolean(),
  version: z.string().nullable(),
  host: z.string().nullable(),
  lastHeartbeatAt: z.iso.datetime().nullable(),
  /** The probe's clock minus the server's; over 2 s either way is a warning. */
  clockOffsetMs: z.number().int().nullable(),
  clockWarning: z.boolean(),
  /** Checks in flight per check slot (0–1 and above when saturated). */
  load: z.number().nullable(),
  /** p99 of how late checks started, over the last minute. */
  latenessP99Ms: z.number().int().nullable(),
  /** Results spooled on disk waiting to be sent, and dropped from a full spool. */
  spoolDepth: z.number().int().nullable(),
  spoolDropped: z.number().int().nullable(),
  tokens: z.array(ProbeTokenView),
});
export type ProbeView = z.infer<typeof ProbeView>;

/** A location with its probes (Settings → Locations). */
export const LocationView = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  createdAt: z.iso.datetime(),
  /** The built-in scheduler (`local`): no probes, cannot be deleted. */
  builtIn: z.boolean(),
  /** Null for `local`; false while every probe has been silent for the offline window. */
  online: z.boolean().nullable(),
  offlineSince: z.iso.datetime().nullable(),
  probes: z.array(ProbeView),
});
export type LocationView = z.infer<typeof LocationView>;

export const ProbeInput = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(60),
});
export type ProbeInput = z.infer<typeof ProbeInput>;

export const ProbeRotateInput = z.object({
  /** How long the old token keeps working (default 10 minutes, at most a week). */
  overlapSeconds: z.number().int().min(0).max(604_800).default(600),
});
export type ProbeRotateInput = z.infer<typeof ProbeRotateInput>;

/** A new token, shown once, with the exact command that starts the probe with it. */
export const ProbeTokenCreated = z.object({
  probe: ProbeView,
  token: z.string(),
  command: z.string(),
});
export type ProbeTokenCreated = z.infer<typeof ProbeTokenCreated>;

/**
 * The admins' one notice that coverage is lost (issue 16 item 4, ADR 73): monitors UNKNOWN
 * because too few of their locations report, how many, and which locations are silent.
 * `monitors` 0: coverage is whole and nothing is shown.
 */
export const CoverageNotice = z.object({
  monitors: z.number().int(),
  locations: z.array(z.object({ id: z.string(), name: z.string(), monitors: z.number().int() })),
  since: z.iso.datetime().nullable(),
});
export type CoverageNotice = z.infer<typeof CoverageNotice>;
