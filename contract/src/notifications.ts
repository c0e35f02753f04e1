import { z } from 'zod';
import { CheckErrorCode } from './checks.js';
import { QuietHoursWindow } from './escalation.js';
import { IncidentSeverity, IncidentState } from './incidents.js';
import { Header, HttpUrl, MonitorStatus, MonitorType } from './monitors.js';

/** Every kind of notification channel; one folder each under server/src/notify/channels/. */
export const channelKinds = [
  'webhook',
  'slack',
  'discord',
  'teams',
  'mattermost',
  'rocketchat',
  'telegram',
  'ntfy',
  'gotify',
  'pushover',
  'pagerduty',
  'opsgenie',
  'email',
] as const;
export const ChannelKind = z.enum(channelKinds);
export type ChannelKind = z.infer<typeof ChannelKind>;

const optionalText = (max: number, what: string) =>
  z.string().trim().max(max, `${what} is limited to ${max} characters`).default('');

const Email = z
  .string()
  .trim()
  .max(254, 'Addresses are limited to 254 characters')
  .pipe(z.email('Enter an email address like ops@example.com'));

/**
 * Overrides of the default message; `{{placeholders}}` name event fields (see
 * docs/notifications.md). Empty means the default text.
 */
export const MessageTemplate = z.strictObject({
  title: optionalText(300, 'The title template'),
  body: optionalText(4000, 'The body template'),
});
export type MessageTemplate = z.infer<typeof MessageTemplate>;

const secret = (what: string) =>
  z.string().min(1, `Enter the ${what}`).max(4096, `The ${what} is too long`);

/**
 * Each kind's settings in two parts: `config` is shown back to editors; `secrets` is write-only
 * (sealed with the instance key, never returned; leaving a field out of an update keeps it).
 */
export const channelSchemas = {
  webhook: {
    config: z.strictObject({
      url: HttpUrl,
      method: z.enum(['POST', 'PUT']).default('POST'),
      headers: z.array(Header).max(20, 'At most 20 headers').default([]),
    }),
    secrets: z.strictObject({
      /** HMAC-SHA256 key for the `X-Pagewatch-Signature` header; absent: unsigned. */
      signingSecret: secret('signing secret').optional(),
    }),
  },
  slack: {
    config: z.strictObject({
      channel: optionalText(80, 'The channel'),
      username: optionalText(80, 'The user name'),
    }),
    secrets: z.strictObject({ webhookUrl: HttpUrl }),
  },
  discord: {
    config: z.strictObject({ username: optionalText(80, 'The user name') }),
    secrets: z.strictObject({ webhookUrl: HttpUrl }),
  },
  teams: {
    config: z.strictObject({}),
    secrets: z.strictObject({ webhookUrl: HttpUrl }),
  },
  mattermost: {
    config: z.strictObject({
      channel: optionalText(80, 'The channel'),
      username: optionalText(80, 'The user name'),
    }),
    secrets: z.strictObject({ webhookUrl: HttpUrl }),
  },
  rocketchat: {
    config: z.strictObject({
      channel: optionalText(80, 'The channel'),
      username: optionalText(80, 'The user name'),
    }),
    secrets: z.strictObject({ webhookUrl: HttpUrl }),
  },
  telegram: {
    config: z.strictObject({
      baseUrl: HttpUrl.default('https://api.telegram.org'),
      chatId: z
        .string()
        .trim()
        .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/, 'A numeric chat id or @channelname'),
      messageThreadId: z.number().int().positive().nullable().default(null),
    }),
    secrets: z.strictObject({ botToken: secret('bot token') }),
  },
  ntfy: {
    config: z.strictObject({
      serverUrl: HttpUrl.default('https://ntfy.sh'),
      topic: z
        .string()
        .trim()
        .regex(/^[-_A-Za-z0-9]{1,64}$/, 'Topics are 1–64 letters, digits, - and _'),
      priority: z.number().int().min(1).max(5).default(4),
    }),
    secrets: z.strictObject({ token: secret('access token').optional() }),
  },
  gotify: {
    config: z.strictObject({
      serverUrl: HttpUrl,
      priority: z.number().int().min(0).max(10).default(8),
    }),
    secrets: z.strictObject({ appToken: secret('application token') }),
  },
  pushover: {
    config: z.strictObject({
      apiUrl: HttpUrl.default('https://api.pushover.net'),
      priority: z.number().int().min(-2).max(2).default(1),
      device: optionalText(100, 'The device'),
      sound: optionalText(40, 'The sound'),
    }),
    secrets: z.strictObject({ appToken: secret('application token'), userKey: secret('user key') }),
  },
  pagerduty: {
    config: z.strictObject({
      eventsUrl: HttpUrl.default('https://events.pagerduty.com/v2/enqueue'),
      severity: z.enum(['critical', 'error', 'warning', 'info']).default('critical'),
    }),
    secrets: z.strictObject({ routingKey: secret('integration (routing) key') }),
  },
  opsgenie: {
    config: z.strictObject({
      apiUrl: HttpUrl.default('https://api.opsgenie.com'),
      priority: z.enum(['P1', 'P2', 'P3', 'P4', 'P5']).default('P2'),
    }),
    secrets: z.strictObject({ apiKey: secret('API key') }),
  },
  email: {
    config: z.strictObject({
      host: z.string().trim().min(1, 'Enter the SMTP server').max(253),
      port: z.number().int().min(1).max(65535).default(587),
      /** `starttls` upgrades a plain connection (587); `tls` is TLS from the start (465). */
      security: z.enum(['starttls', 'tls', 'none']).default('starttls'),
      ignoreTlsErrors: z.boolean().default(false),
      username: optionalText(254, 'The user name'),
      from: Email,
      to: z.array(Email).min(1, 'Add at least one recipient').max(50, 'At most 50 recipients'),
    }),
    secrets: z.strictObject({ password: secret('password').optional() }),
  },
} as const satisfies Record<ChannelKind, { config: z.ZodType; secrets: z.ZodType }>;

export type ChannelConfig<K extends ChannelKind> = z.infer<(typeof channelSchemas)[K]['config']>;
export type ChannelSecrets<K extends ChannelKind> = z.infer<(typeof channelSchemas)[K]['secrets']>;

/**
 * A channel's quiet hours (ADR 68): during the windows a warning monitor's messages wait for
 * the window's end, or go to `rerouteChannelId` at once when one is set; critical ones are
 * never held. No windows: the channel is never quiet.
 */
export const ChannelQuietHours = z.strictObject({
  windows: z.array(QuietHoursWindow).max(14, 'At most 14 windows').default([]),
  rerouteChannelId: z.number().int().positive().nullable().default(null),
});
export type ChannelQuietHours = z.infer<typeof ChannelQuietHours>;

const channelCommon = {
  name: z
    .string()
    .trim()
    .min(1, 'Give the channel a name')
    .max(100, 'Names are limited to 100 characters'),
  /** Ticked for new monitors automatically. */
  isDefault: z.boolean().default(false),
  enabled: z.boolean().default(true),
  template: MessageTemplate.default({ title: '', body: '' }),
  /**
   * Another channel that gets this one's messages once it has failed `failThreshold`
   * deliveries in a row (ADR 62); never itself, directly or through a chain.
   */
  fallbackChannelId: z.number().int().positive().nullable().default(null),
  failThreshold: z.number().int().min(1, 'At least 1').max(100, 'At most 100').default(3),
  quietHours: ChannelQuietHours.prefault({}),
};

function channelInput<K extends ChannelKind>(kind: K, partialSecrets: boolean) {
  const s = channelSchemas[kind] as { config: z.ZodType; secrets: z.ZodObject };
  return z.strictObject({
    kind: z.literal(kind),
    ...channelCommon,
    config: s.config,
    // On update, a secret left out keeps the stored one. Left out on create, each required
    // secret is reported by name rather than the whole object.
    secrets: partialSecrets ? s.secrets.partial().prefault({}) : s.secrets.prefault({}),
  });
}

function inputUnion(partialSecrets: boolean) {
  return z.discriminatedUnion(
    'kind',
    channelKinds.map((k) => channelInput(k, partialSecrets)) as unknown as [
      ReturnType<typeof channelInput<'webhook'>>,
      ...ReturnType<typeof channelInput<ChannelKind>>[],
    ],
  );
}

/** POST /api/v1/notification-channels. */
export const ChannelCreateInput = inputUnion(false);
export type ChannelCreateInput = z.input<typeof ChannelCreateInput>;
/** PUT /api/v1/notification-channels/:id: secrets may be left out to keep them. */
export const ChannelUpdateInput = inputUnion(true);
export type ChannelUpdateInput = z.input<typeof ChannelUpdateInput>;

export const NotificationChannel = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: ChannelKind,
  isDefault: z.boolean(),
  enabled: z.boolean(),
  template: MessageTemplate,
  config: z.record(z.string(), z.unknown()),
  /** Names of the secret fields that are set; their values never leave the server. */
  secretsSet: z.array(z.string()),
  /** Monitors that alert through this channel. */
  monitorCount: z.number().int(),
  fallbackChannelId: z.number().int().nullable(),
  failThreshold: z.number().int(),
  quietHours: ChannelQuietHours,
  /** Delivery health (ADR 62): failing once `failThreshold` deliveries in a row gave up. */
  health: z.object({
    consecutiveFailures: z.number().int(),
    failing: z.boolean(),
    lastError: z.string().nullable(),
  }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type NotificationChannel = z.infer<typeof NotificationChannel>;

/** What editors see of a channel: enough to pick the channels a monitor alerts through. */
export const ChannelBrief = NotificationChannel.pick({
  id: true,
  name: true,
  kind: true,
  isDefault: true,
  enabled: true,
});
export type ChannelBrief = z.infer<typeof ChannelBrief>;

/** Owners and admins get whole channels; editors get briefs (SPEC §6). */
export const ChannelList = z.object({
  items: z.array(z.union([NotificationChannel, ChannelBrief])),
});
export type ChannelList = z.infer<typeof ChannelList>;

export const ChannelIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
export const DeliveryIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

/** Result of "send test": the receiver's answer, or why it failed. */
export const ChannelTestResult = z.object({
  ok: z.boolean(),
  /** e.g. "HTTP 500: <first 300 characters of the body>" or "connection refused". */
  error: z.string().nullable(),
  durationMs: z.number(),
});
export type ChannelTestResult = z.infer<typeof ChannelTestResult>;

export const alertEventKinds = [
  'monitor.down',
  'monitor.up',
  'monitor.degraded',
  'monitor.regional',
  'monitor.still_down',
  'monitor.flapping',
  'monitor.settled',
  'heartbeat.missed',
  'certificate.expiring',
  'incident.created',
  'incident.updated',
  'incident.resolved',
  'slo.burning',
  'slo.recovered',
  'channel.failing',
  'channel.recovered',
  'test',
] as const;
export const AlertEventKind = z.enum(alertEventKinds);
export type AlertEventKind = z.infer<typeof AlertEventKind>;

/** The check phase a failure happened in, from its error code. */
export const FailurePhase = z.enum([
  'dns',
  'connect',
  'tls',
  'ttfb',
  'content',
  'browser',
  'other',
]);
export type FailurePhase = z.infer<typeof FailurePhase>;

/** A channel that failed deliveries in a row (ADR 62). */
export const ChannelFailure = z.object({
  channelId: z.number().int(),
  channelName: z.string(),
  failures: z.number().int(),
  lastError: z.string().nullable(),
});
export type ChannelFailure = z.infer<typeof ChannelFailure>;

/**
 * What happened, as stored in the outbox and rendered per channel at send time. Only what a
 * person needs to act: no request headers, bodies or secrets of the monitor.
 */
export const AlertEvent = z.object({
  kind: AlertEventKind,
  at: z.iso.datetime(),
  monitor: z
    .object({
      id: z.number().int(),
      name: z.string(),
      type: MonitorType,
      /** URL, host:port or name being checked. */
      target: z.string(),
    })
    .nullable(),
  status: MonitorStatus.nullable(),
  previousStatus: MonitorStatus.nullable(),
  cause: z
    .object({
      code: CheckErrorCode.nullable(),
      message: z.string().nullable(),
      phase: FailurePhase.nullable(),
      /** When the failing streak began. */
      since: z.iso.datetime().nullable(),
    })
    .nullable(),
  /** For `monitor.up`: how long it was down. */
  outageMs: z.number().nullable(),
  /** For `monitor.still_down`: confirmed-down checks so far. */
  downChecks: z.number().int().nullable(),
  certificate: z.object({ expiresAt: z.iso.datetime(), daysLeft: z.number().int() }).nullable(),
  incident: z
    .object({
      id: z.number().int(),
      title: z.string(),
      state: IncidentState,
      severity: IncidentSeverity,
      /** The update just posted, for `incident.updated`. */
      message: z.string().nullable(),
    })
    .nullable(),
  /**
   * Set when an escalation policy routes this outage (ADR 39): which escalation, and for
   * `monitor.up` who acknowledged. `ackUrl` is added at send time, per channel, and never stored.
   */
  escalation: z
    .object({
      id: z.number().int(),
      acknowledgedBy: z.string().nullable(),
      ackUrl: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  /**
   * Set when grouping (ADR 42) made one message of several monitors' alerts: the group's key
   * and name and every member, in the order their alerts came. `monitor` is the first member.
   */
  group: z
    .object({
      key: z.string(),
      label: z.string(),
      members: z.array(
        z.object({ id: z.number().int(), name: z.string(), status: MonitorStatus.nullable() }),
      ),
    })
    .nullable()
    .optional(),
  /**
   * Set for `slo.burning` and `slo.recovered` (ADR 53): the SLO, the rule that breached, the
   * budget left and when it runs out at the last hour's burn rate.
   */
  slo: z
    .object({
      id: z.number().int(),
      name: z.string(),
      subject: z.string(),
      target: z.number(),
      severity: z.enum(['page', 'ticket']).nullable(),
      rule: z
        .object({ budgetPercent: z.number(), longMs: z.number(), shortMs: z.number() })
        .nullable(),
      burnRate: z.number().nullable(),
      remainingMs: z.number(),
      remainingPercent: z.number(),
      exhaustionMs: z.number().nullable(),
    })
    .nullable()
    .optional(),
  /**
   * Set on a message a failing channel's fallback carries instead of it (ADR 62): which
   * channel failed, how many deliveries in a row, and its last error.
   */
  fallback: ChannelFailure.nullable().optional(),
  /** Set for `channel.failing` and `channel.recovered`, the admin notices of ADR 62. */
  channelHealth: ChannelFailure.nullable().optional(),
  /**
   * Set on a message a channel's quiet hours sent to another channel (ADR 68): the channels it
   * was passed on from, in order (more than one when a reroute target was quiet too).
   */
  rerouted: z
    .object({
      from: z.array(z.object({ channelId: z.number().int(), channelName: z.string() })).min(1),
    })
    .nullable()
    .optional(),
});
export type AlertEvent = z.infer<typeof AlertEvent>;

/** SPEC §4: queued → sent | retrying → failed. */
export const DeliveryState = z.enum(['queued', 'retrying', 'sent', 'failed']);
export type DeliveryState = z.infer<typeof DeliveryState>;

export const Delivery = z.object({
  id: z.number().int(),
  channel: z.object({ id: z.number().int(), name: z.string(), kind: ChannelKind }).nullable(),
  event: AlertEvent,
  state: DeliveryState,
  attempts: z.number().int(),
  nextAttemptAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
});
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryQuery = z.strictObject({
  channelId: z.coerce.number().int().positive().optional(),
  monitorId: z.coerce.number().int().positive().optional(),
  state: DeliveryState.optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type DeliveryQuery = z.infer<typeof DeliveryQuery>;

export const DeliveryPage = z.object({
  items: z.array(Delivery),
  nextCursor: z.number().int().nullable(),
});
export type DeliveryPage = z.infer<typeof DeliveryPage>;

/** SPEC §9: 6 attempts, backoff 10 s × 3ⁿ, capped at 1 h. */
export const deliveryPolicy = {
  attempts: 6,
  baseDelayMs: 10_000,
  factor: 3,
  maxDelayMs: 3_600_000,
} as const;
