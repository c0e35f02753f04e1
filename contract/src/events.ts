import { z } from 'zod';
import { CheckResult } from './checks.js';
import { MonitorStatus } from './monitors.js';

/** Events pushed on `/api/v1/events`; the SSE `event:` field is the `kind`. */
export const ServerEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('result'),
    monitorId: z.number().int(),
    status: MonitorStatus,
    result: CheckResult,
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
    /** Sent when the requested Last-Event-ID is too old to replay: refetch everything. */
    kind: z.literal('reset'),
  }),
]);
export type ServerEvent = z.infer<typeof ServerEvent>;
