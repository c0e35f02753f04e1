import { z } from 'zod';
import { BrowserMeasurements } from './browser.js';
import { CheckDetails, CheckErrorCode, CheckOutcome, Phases } from './checks.js';

/**
 * The remote probe's protocol (docs/probes.md, ADR 56): plain HTTP/JSON under
 * `/api/probe/v1/`, the version also named in a header so a mismatch is refused plainly.
 */
export const PROBE_PROTOCOL_VERSION = 1;
export const PROBE_PROTOCOL_HEADER = 'pagewatch-probe-protocol';
/** Items in one result batch at most (a larger one is refused, nothing recorded). */
export const PROBE_MAX_BATCH = 1000;
/** A result batch's body limit. */
export const PROBE_MAX_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * A monitor as the probe runs it: `definition` is the server's monitor record with its stored
 * credentials opened (the probe's TLS connection carries them; the probe keeps them in memory).
 */
export const ProbeMonitor = z.object({
  id: z.number().int(),
  type: z.string(),
  intervalS: z.number().positive(),
  timeoutS: z.number().positive(),
  updatedAt: z.number().int(),
  definition: z.record(z.string(), z.unknown()),
});
export type ProbeMonitor = z.infer<typeof ProbeMonitor>;

/** One line of the assignment stream (NDJSON); every line carries the server's clock. */
export const ProbeStreamLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    serverTime: z.number(),
    protocol: z.number().int(),
    probeId: z.number().int(),
    locationId: z.string(),
    heartbeatMs: z.number().int(),
  }),
  /** The whole assignment: anything the probe runs and is not in it stops. */
  z.object({
    type: z.literal('snapshot'),
    serverTime: z.number(),
    monitors: z.array(ProbeMonitor),
  }),
  z.object({ type: z.literal('upsert'), serverTime: z.number(), monitors: z.array(ProbeMonitor) }),
  z.object({ type: z.literal('remove'), serverTime: z.number(), ids: z.array(z.number().int()) }),
  z.object({ type: z.literal('ping'), serverTime: z.number() }),
  /** The server ends the stream on purpose (`revoked`, `shutdown`); the probe stops or retries. */
  z.object({ type: z.literal('closing'), serverTime: z.number(), reason: z.string() }),
]);
export type ProbeStreamLine = z.infer<typeof ProbeStreamLine>;

/** What one check observed, as the server's own checks record it. */
export const ProbeCheckResult = z.object({
  outcome: CheckOutcome,
  latencyMs: z.number().min(0).nullable(),
  phases: Phases,
  httpStatus: z.number().int().nullable(),
  errorCode: CheckErrorCode.nullable(),
  errorMessage: z.string().max(2000).nullable(),
  responseSize: z.number().int().min(0).nullable(),
  certExpiresAt: z.number().nullable(),
  details: CheckDetails.optional(),
  browser: z
    .object({ measurements: BrowserMeasurements, screenshotBase64: z.string().nullable() })
    .optional(),
});
export type ProbeCheckResult = z.infer<typeof ProbeCheckResult>;

/** One result, keyed by (monitor, location, round): `roundAt` is the round's due time. */
export const ProbeResultItem = z.object({
  monitorId: z.number().int().positive(),
  roundAt: z.iso.datetime(),
  startedAt: z.iso.datetime(),
  result: ProbeCheckResult,
});
export type ProbeResultItem = z.infer<typeof ProbeResultItem>;

export const ProbeResultBatch = z.object({
  /** Spooled results sent after a disconnection: history and rollups only, never live status. */
  replayed: z.boolean().default(false),
  items: z.array(ProbeResultItem).min(1).max(PROBE_MAX_BATCH),
});
export type ProbeResultBatch = z.infer<typeof ProbeResultBatch>;

export const ProbeResultAnswer = z.object({
  serverTime: z.number(),
  accepted: z.number().int(),
  duplicates: z.number().int(),
  /** Items recorded as replayed because they came too late to count as live. */
  late: z.number().int(),
  refused: z.array(z.object({ index: z.number().int(), code: z.string() })),
});
export type ProbeResultAnswer = z.infer<typeof ProbeResultAnswer>;

export const ProbeHeartbeat = z.object({
  version: z.string().max(40),
  host: z.string().max(200).nullable(),
  /** The probe's offset estimate (its clock minus the server's), from the last answers. */
  clockOffsetMs: z.number().int().nullable(),
  load: z.number().min(0),
  latenessP99Ms: z.number().int().min(0).nullable(),
  spoolDepth: z.number().int().min(0),
  spoolDropped: z.number().int().min(0),
  monitors: z.number().int().min(0),
});
export type ProbeHeartbeat = z.infer<typeof ProbeHeartbeat>;

export const ProbeHeartbeatAnswer = z.object({
  serverTime: z.number(),
  /** Over 2 s off: a warning shown with the probe, never a refusal. */
  clockWarning: z.boolean(),
});
export type ProbeHeartbeatAnswer = z.infer<typeof ProbeHeartbeatAnswer>;
