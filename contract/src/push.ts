import { z } from 'zod';

export const pushLimits = {
  /** Characters of `msg` (or of a POST body used as the message) kept with a ping. */
  messageMax: 1000,
  /** Largest reported run duration, ms: a day, the longest interval. */
  durationMaxMs: 86_400_000,
} as const;

/**
 * A push URL's token. Pagewatch makes 32 base62 characters (about 190 bits); a monitor imported
 * from Uptime Kuma keeps its token (10 characters from Kuma 1.x) so existing jobs keep pinging.
 */
export const PushToken = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/**
 * The query of a ping to `/api/push/:token` (SPEC §2). `msg` longer than the limit is cut
 * rather than refused, so a chatty job still counts as alive.
 */
export const PushPingQuery = z.object({
  status: z.enum(['up', 'down'], { error: 'status is up or down' }).default('up'),
  msg: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined || v === '' ? undefined : v.slice(0, pushLimits.messageMax),
    ),
  ping: z.coerce
    .number({ error: 'ping is the run duration in milliseconds' })
    .min(0, 'ping is the run duration in milliseconds, at least 0')
    .max(pushLimits.durationMaxMs, 'ping is at most 86,400,000 ms (a day)')
    .optional(),
});
export type PushPingQuery = z.infer<typeof PushPingQuery>;

/** The JSON answer to a ping (plain `OK` unless the caller accepts JSON). */
export const PushPingReply = z.object({
  ok: z.literal(true),
  /** What was recorded: up or down; `started` for a start signal. */
  recorded: z.enum(['up', 'degraded', 'down', 'started']),
});
export type PushPingReply = z.infer<typeof PushPingReply>;
