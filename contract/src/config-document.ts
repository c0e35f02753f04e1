import { z } from 'zod';
import {
  ChannelQuietHours,
  channelKinds,
  channelSchemas,
  ChannelCreateInput,
  type ChannelKind,
} from './notifications.js';
import { MaintenanceInput } from './maintenance.js';
import { SloInput, SloSubject } from './slos.js';
import {
  BrowserMonitorInput,
  DnsMonitorInput,
  DomainMonitorInput,
  HttpMonitorInput,
  MonitorType,
  MongodbMonitorInput,
  MqttMonitorInput,
  AmqpMonitorInput,
  SmtpMonitorInput,
  ImapMonitorInput,
  Pop3MonitorInput,
  GroupMonitorInput,
  groupLimits,
  MysqlMonitorInput,
  PostgresMonitorInput,
  RedisMonitorInput,
  PushMonitorInput,
  TcpMonitorInput,
  PingMonitorInput,
  UdpMonitorInput,
  WebSocketMonitorInput,
  GrpcMonitorInput,
  TlsMonitorInput,
} from './monitors.js';
import {
  StatusComponentInput,
  StatusPageInput,
  StatusSectionInput,
  statusPageLimits,
} from './status-pages.js';

/**
 * The configuration as code (issue 15): every monitor, notification channel, status page,
 * maintenance window and SLO of an instance as one document, YAML or JSON. Each entry is its resource's
 * input schema with a stable `key` added and ids replaced by the keys of what it refers to.
 * See docs/config-as-code.md.
 */
export const configDocumentVersion = 1;

/** A resource's stable name in configuration files: unique per kind, never shown to visitors. */
export const ConfigKey = z
  .string({ error: 'Give the resource a key' })
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    'Keys are lower-case letters, digits and hyphens, starting with a letter or digit (at most 63)',
  );
export type ConfigKey = z.infer<typeof ConfigKey>;

/** `${env:NAME}`: a secret read from the environment of whoever applies the document. */
export const ENV_REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
export const envReference = (name: string): string => `\${env:${name}}`;
/** The variable a secret value refers to, or null when the value is written inline. */
export function envReferenceName(value: string): string | null {
  return ENV_REFERENCE.exec(value)?.[1] ?? null;
}

const EnvReference = z
  .string()
  .regex(ENV_REFERENCE, 'Write ${env:NAME} with a variable name of letters, digits and _');

/** A secret field: a reference to an environment variable, or the value itself (warned). */
function secretField(inline: z.ZodType): z.ZodType<string> {
  return z.union([EnvReference, inline as z.ZodType<string>], {
    error: 'Write the secret as ${env:NAME}',
  });
}

const KeyList = (what: string) => z.array(ConfigKey).max(1000, `At most 1,000 ${what}`);

/**
 * Where a monitor is checked (ADR 58, ADR 70): location ids (they live on the server with their
 * probes and tokens, never in files) and k of "down when k fail". Left out: `local` only and a
 * majority, the defaults, so a document written before locations still means the same.
 */
const LocationIds = z
  .array(z.string().trim().min(1).max(64))
  .min(1, 'Choose at least one location')
  .max(32, 'At most 32 locations')
  .refine((ids) => new Set(ids).size === ids.length, 'A location is named only once');
const Quorum = z
  .number()
  .int('Whole locations only')
  .min(1, 'At least 1 location')
  .max(32, 'At most 32 locations')
  .nullable();

/**
 * The fields a monitor has in the document: its input without `channelIds`, with `key` and
 * `channels` (channel keys; left out on create: the default channels, on update: unchanged),
 * `locations` and `quorum`.
 */
function monitorEntry<T extends z.ZodObject>(input: T) {
  const { channelIds: _ids, ...shape } = input.shape as T['shape'] & { channelIds: unknown };
  return z
    .strictObject({
      key: ConfigKey,
      ...(shape as Omit<T['shape'], 'channelIds'>),
      channels: KeyList('channels').optional(),
      locations: LocationIds.optional(),
      quorum: Quorum.optional(),
    })
    .check((payload) => {
      const placed = payload.value as { locations?: string[]; quorum?: number | null };
      const count = placed.locations?.length ?? 1;
      if (placed.quorum != null && placed.quorum > count) {
        payload.issues.push({
          code: 'custom',
          path: ['quorum'],
          message: `At most ${count} (the locations chosen)`,
          input: placed.quorum,
        });
      }
    })
    .check((payload) => {
      // The input's own rules across fields (timeout below interval, body matches its type…);
      // a field its own checks already faulted is not reported twice (messages come later).
      const {
        key: _key,
        channels: _channels,
        locations: _locations,
        quorum: _quorum,
        ...rest
      } = payload.value as Record<string, unknown>;
      const checked = input.safeParse(rest);
      if (checked.success) return;
      const said = new Set(payload.issues.map((i) => `${i.path?.join('.')}\n${i.code}`));
      for (const issue of checked.error.issues) {
        // A finished issue is a raw one with its message set (zod keeps the message given).
        const raw = issue as z.core.$ZodRawIssue;
        if (!said.has(`${issue.path.join('.')}\n${issue.code}`)) payload.issues.push(raw);
      }
    });
}

export const HttpMonitorEntry = monitorEntry(HttpMonitorInput);
export const DomainMonitorEntry = monitorEntry(DomainMonitorInput);
export const TcpMonitorEntry = monitorEntry(TcpMonitorInput);
export const DnsMonitorEntry = monitorEntry(DnsMonitorInput);
export const TlsMonitorEntry = monitorEntry(TlsMonitorInput);
export const PushMonitorEntry = monitorEntry(PushMonitorInput);
export const BrowserMonitorEntry = monitorEntry(BrowserMonitorInput);
export const PingMonitorEntry = monitorEntry(PingMonitorInput);
export const UdpMonitorEntry = monitorEntry(UdpMonitorInput);
export const WebSocketMonitorEntry = monitorEntry(WebSocketMonitorInput);
export const GrpcMonitorEntry = monitorEntry(GrpcMonitorInput);
export const PostgresMonitorEntry = monitorEntry(PostgresMonitorInput);
export const MysqlMonitorEntry = monitorEntry(MysqlMonitorInput);
export const RedisMonitorEntry = monitorEntry(RedisMonitorInput);
export const MongodbMonitorEntry = monitorEntry(MongodbMonitorInput);
export const MqttMonitorEntry = monitorEntry(MqttMonitorInput);
export const AmqpMonitorEntry = monitorEntry(AmqpMonitorInput);
export const SmtpMonitorEntry = monitorEntry(SmtpMonitorInput);
export const ImapMonitorEntry = monitorEntry(ImapMonitorInput);
export const Pop3MonitorEntry = monitorEntry(Pop3MonitorInput);

const { members: _members, ...groupShape } = GroupMonitorInput.shape;
/** A group names its members by monitor key, like every reference in the document. */
export const GroupMonitorEntry = monitorEntry(
  z.strictObject({
    ...groupShape,
    members: z
      .array(ConfigKey)
      .min(1, 'Choose at least one member')
      .max(groupLimits.membersMax, `A group has at most ${groupLimits.membersMax} members`)
      .refine((keys) => new Set(keys).size === keys.length, 'A monitor is a member only once'),
  }),
);

/** A monitor in the document; secret headers and credentials take `${env:NAME}` values. */
export const MonitorEntry = z.discriminatedUnion(
  'type',
  [
    HttpMonitorEntry,
    DomainMonitorEntry,
    TcpMonitorEntry,
    DnsMonitorEntry,
    TlsMonitorEntry,
    PushMonitorEntry,
    BrowserMonitorEntry,
    PingMonitorEntry,
    UdpMonitorEntry,
    WebSocketMonitorEntry,
    GrpcMonitorEntry,
    PostgresMonitorEntry,
    MysqlMonitorEntry,
    RedisMonitorEntry,
    MongodbMonitorEntry,
    MqttMonitorEntry,
    AmqpMonitorEntry,
    SmtpMonitorEntry,
    ImapMonitorEntry,
    Pop3MonitorEntry,
    GroupMonitorEntry,
  ],
  { error: `Choose a monitor type: ${MonitorType.options.join(', ')}` },
);
export type MonitorEntry = z.infer<typeof MonitorEntry>;

/**
 * An id field that exports before ADR 74 wrote, always null (they could not name a channel):
 * still read so those files apply, and dropped. A number asks for the key field instead.
 */
const legacyNullId = (field: string) =>
  z
    .null({ error: `Name the channel by its key in ${field}` })
    .optional()
    .transform(() => undefined);

const { rerouteChannelId: _reroute, ...quietShape } = ChannelQuietHours.shape;

/** A channel's quiet hours (ADR 68); the channel warnings go to meanwhile named by key. */
export const ChannelQuietHoursEntry = z.strictObject({
  ...quietShape,
  rerouteChannel: ConfigKey.nullable().default(null),
  rerouteChannelId: legacyNullId('rerouteChannel'),
});

function channelEntry<K extends ChannelKind>(kind: K) {
  const input = ChannelCreateInput.options[channelKinds.indexOf(kind)] as unknown as z.ZodObject;
  const secrets = channelSchemas[kind].secrets as z.ZodObject;
  const secretShape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(secrets.shape)) {
    const optional = field instanceof z.ZodOptional;
    const inner = optional ? (field.unwrap() as z.ZodType) : (field as z.ZodType);
    secretShape[name] = optional ? secretField(inner).optional() : secretField(inner);
  }
  const {
    secrets: _secrets,
    fallbackChannelId: _fallback,
    quietHours: _quietHours,
    ...shape
  } = input.shape;
  return z.strictObject({
    key: ConfigKey,
    ...shape,
    kind: z.literal(kind),
    /** The key of the channel that gets this one's messages once it keeps failing (ADR 62). */
    fallbackChannel: ConfigKey.nullable().default(null),
    fallbackChannelId: legacyNullId('fallbackChannel'),
    quietHours: ChannelQuietHoursEntry.prefault({}),
    // Left out of an update, a secret keeps the stored one; on create a required one is asked for.
    secrets: z.strictObject(secretShape).prefault({}),
  });
}

/** A notification channel in the document: `config` as shown to admins, `secrets` by reference. */
export const ChannelEntry = z.discriminatedUnion(
  'kind',
  channelKinds.map((k) => channelEntry(k)) as unknown as [
    ReturnType<typeof channelEntry<'webhook'>>,
    ...ReturnType<typeof channelEntry<ChannelKind>>[],
  ],
  { error: `Choose a channel kind: ${channelKinds.join(', ')}` },
);
export type ChannelEntry = z.infer<typeof ChannelEntry>;

const { monitorId: _monitorId, ...componentShape } = StatusComponentInput.shape;
export const StatusComponentEntry = z.strictObject({
  /** The key of the monitor shown. */
  monitor: ConfigKey,
  ...componentShape,
});

export const StatusSectionEntry = z.strictObject({
  ...StatusSectionInput.shape,
  components: z.array(StatusComponentEntry).max(statusPageLimits.componentsMax),
});

const { sections: _sections, subscriptions: _subscriptions, ...pageShape } = StatusPageInput.shape;

/** Longest logo data URI: 256 KiB of image in base64, with its prefix. */
const LOGO_DATA_MAX = Math.ceil(statusPageLimits.logoBytesMax / 3) * 4 + 64;

/**
 * A page's logo as a `data:` URI (export writes it so). Files read by the CLI or the server
 * may name an image file beside them instead (`logo: ./logo.png`), read in before this check.
 */
export const LogoData = z
  .string()
  .max(LOGO_DATA_MAX, 'Logos are limited to 256 KiB')
  .regex(
    /^data:image\/(?:png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/,
    'A logo is a PNG, JPEG, WebP or GIF image: a file name beside this file, or a data: URI in base64',
  );

/**
 * A status page in the document; components name monitors by key. `logo` left out keeps the
 * page's logo as it is; null removes it.
 */
export const StatusPageEntry = z
  .strictObject({
    key: ConfigKey,
    ...pageShape,
    logo: LogoData.nullable().optional(),
    sections: z
      .array(StatusSectionEntry)
      .max(statusPageLimits.sectionsMax, 'At most 20 sections')
      .default([]),
    subscriptions: z
      .strictObject({
        email: z.boolean().default(false),
        webhook: z.boolean().default(false),
        /** The key of the email channel whose SMTP server sends subscriber mail. */
        emailChannel: ConfigKey.nullable().default(null),
      })
      .default({ email: false, webhook: false, emailChannel: null }),
  })
  .superRefine((page, ctx) => {
    const seen = new Set<string>();
    page.sections.forEach((s, si) =>
      s.components.forEach((c, ci) => {
        if (seen.has(c.monitor)) {
          const path = ['sections', si, 'components', ci, 'monitor'];
          ctx.addIssue({ code: 'custom', path, message: 'This monitor is already on the page' });
        }
        seen.add(c.monitor);
      }),
    );
    if (page.subscriptions.email && page.subscriptions.emailChannel === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['subscriptions', 'emailChannel'],
        message: 'Name the email channel that sends subscriber mail',
      });
    }
  });
export type StatusPageEntry = z.infer<typeof StatusPageEntry>;

export const MaintenanceScopeEntry = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('all') }),
    z.strictObject({
      kind: z.literal('monitors'),
      /** Keys of the monitors the window covers. */
      monitors: KeyList('monitors').min(1, 'Name at least one monitor, or use kind: all'),
    }),
  ],
  { error: 'Choose all monitors or a list of monitors' },
);

const { scope: _scope, ...maintenanceShape } = MaintenanceInput.shape;

/** A maintenance window in the document; its scope names monitors by key. */
export const MaintenanceEntry = z.strictObject({
  key: ConfigKey,
  ...maintenanceShape,
  scope: MaintenanceScopeEntry,
});
export type MaintenanceEntry = z.infer<typeof MaintenanceEntry>;

/**
 * What an SLO is about, by key (ADR 74): a monitor (a group monitor too), every monitor with a
 * tag, or a status page's component (the page's key, the monitor's key).
 */
export const SloSubjectEntry = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('monitor'), monitor: ConfigKey }),
    SloSubject.options[1],
    z.strictObject({ kind: z.literal('component'), statusPage: ConfigKey, monitor: ConfigKey }),
  ],
  { error: 'Choose the subject: kind monitor, tag or component' },
);

const { subject: _subject, ...sloShape } = SloInput.shape;

/** A service level objective (issue 20, ADR 52/53) in the document; its subject by key. */
export const SloEntry = z.strictObject({
  key: ConfigKey,
  ...sloShape,
  subject: SloSubjectEntry,
});
export type SloEntry = z.infer<typeof SloEntry>;

/**
 * One configuration file, or several merged (a folder). Every list may be left out. Keys are
 * unique per kind across the merged files; references to keys are checked by the server.
 */
export const ConfigDocument = z.strictObject({
  /** Where an editor finds the JSON Schema (`/api/v1/config/schema.json`); ignored. */
  $schema: z.string().optional(),
  version: z.literal(configDocumentVersion, { error: 'Write version: 1' }),
  channels: z.array(ChannelEntry).default([]),
  monitors: z.array(MonitorEntry).default([]),
  statusPages: z.array(StatusPageEntry).default([]),
  maintenance: z.array(MaintenanceEntry).default([]),
  slos: z.array(SloEntry).default([]),
});
export type ConfigDocument = z.infer<typeof ConfigDocument>;
/** The document as written, before defaults. */
export type ConfigDocumentInput = z.input<typeof ConfigDocument>;

/** The kinds of resource a document holds, in the order they are applied. */
export const configKinds = ['channels', 'monitors', 'statusPages', 'maintenance', 'slos'] as const;
export type ConfigKind = (typeof configKinds)[number];
