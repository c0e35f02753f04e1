import { z } from 'zod';
import { CheckDetails, CheckResult } from './checks.js';
import { IncidentSeverity, IncidentState } from './incidents.js';
import { MonitorStatus } from './monitors.js';

/** Events pushed on `/api/v1/events`; the SSE `event:` field is the `kind`. */
export const ServerEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('result'),
    monitorId: z.number().int(),
    status: MonitorStatus,
    result: CheckResult,
    /** The check's certificate and assertion results, as `lastDetails` now holds them. */
    details: CheckDetails.nullable().optional(),
  }),
  z.object({
    kind: z.literal('status'),
    monitorId: z.number().int(),
    from: MonitorStatus,
    to: MonitorStatus,
    at: z.iso.datetime(),
    errorCode: z.string().nullable(),
    message: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('monitor'),
    change: z.enum(['created', 'updated', 'deleted']),
    monitorId: z.number().int(),
  }),
  z.object({
    /**
     * Many monitors' definitions changed at once (a bulk action): one event per batch of at
     * most `monitorsEventMax` ids instead of one per monitor, so listeners read them together.
     */
    kind: z.literal('monitors'),
    change: z.literal('updated'),
    monitorIds: z.array(z.number().int()),
  }),
  z.object({
    /**
     * An incident was opened, changed (edit or update posted), resolved or deleted. Complete
     * enough for subscribers (the UI, alerting) to act without reading it back.
     */
    kind: z.literal('incident'),
    change: z.enum(['created', 'updated', 'resolved', 'deleted']),
    incidentId: z.number().int(),
    /** The monitor whose outage opened it (automatic incidents); null otherwise. */
    monitorId: z.number().int().nullable(),
    /** Every monitor the incident affects. */
    monitorIds: z.array(z.number().int()),
    title: z.string(),
    state: IncidentState,
    severity: IncidentSeverity,
    automatic: z.boolean(),
    at: z.iso.datetime(),
  }),
  z.object({
    /** A maintenance window was created, changed, cancelled or deleted. */
    kind: z.literal('maintenance'),
    change: z.enum(['created', 'updated', 'deleted']),
    windowId: z.number().int(),
  }),
  z.object({
    /** A status page was created, edited, published or deleted (public caches drop it). */
    kind: z.literal('status-page'),
    change: z.enum(['created', 'updated', 'deleted']),
    pageId: z.number().int(),
  }),
  z.object({
    /** Sent when the requested Last-Event-ID is too old to replay: refetch everything. */
    kind: z.literal('reset'),
  }),
]);
export type ServerEvent = z.infer<typeof ServerEvent>;

/**
 * Ids in one `monitors` event: small enough for PostgreSQL's NOTIFY payload (under 8,000 bytes)
 * when processes share events.
 */
export const monitorsEventMax = 500;
