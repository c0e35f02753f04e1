import { z } from 'zod';
import { QuietHoursWindow } from './escalation.js';
import { channelSchemas } from './notifications.js';
import { Email } from './people.js';

/**
 * A person's own ways to be reached (issue 18 item 1, ADR 60): mail through the instance's
 * system mail channel, or a personal target of an existing channel kind. Each is verified by a
 * code sent through it before escalation steps may use it.
 */
export const contactMethodKinds = [
  'email',
  'ntfy',
  'telegram',
  'pushover',
  'slack',
  'webhook',
] as const;
export const ContactMethodKind = z.enum(contactMethodKinds);
export type ContactMethodKind = z.infer<typeof ContactMethodKind>;

const label = z.string().trim().max(100, 'Labels are limited to 100 characters').default('');

/** Secrets are write-only: sealed at rest and never returned (only their names are). */
export const ContactMethodInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('email'),
    label,
    config: z.strictObject({ address: Email }),
    secrets: z.strictObject({}).prefault({}),
  }),
  z.strictObject({
    kind: z.literal('ntfy'),
    label,
    config: channelSchemas.ntfy.config,
    secrets: channelSchemas.ntfy.secrets.prefault({}),
  }),
  z.strictObject({
    kind: z.literal('telegram'),
    label,
    config: channelSchemas.telegram.config,
    secrets: channelSchemas.telegram.secrets,
  }),
  z.strictObject({
    kind: z.literal('pushover'),
    label,
    config: channelSchemas.pushover.config,
    secrets: channelSchemas.pushover.secrets,
  }),
  z.strictObject({
    kind: z.literal('slack'),
    label,
    config: channelSchemas.slack.config,
    secrets: channelSchemas.slack.secrets,
  }),
  z.strictObject({
    kind: z.literal('webhook'),
    label,
    config: channelSchemas.webhook.config,
    secrets: channelSchemas.webhook.secrets.prefault({}),
  }),
]);
export type ContactMethodInput = z.input<typeof ContactMethodInput>;
export type ContactMethodParsed = z.infer<typeof ContactMethodInput>;

export const ContactMethod = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  kind: ContactMethodKind,
  label: z.string(),
  /** The kind's settings without secrets (a webhook's URL, an ntfy topic, an address). */
  config: z.record(z.string(), z.unknown()),
  /** Names of the secrets that hold a value; the values never leave the server. */
  secretNames: z.array(z.string()),
  verifiedAt: z.iso.datetime().nullable(),
  /** When the last verification code was sent (null: none pending). */
  codeSentAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type ContactMethod = z.infer<typeof ContactMethod>;

export const ContactMethodList = z.object({ items: z.array(ContactMethod) });
export type ContactMethodList = z.infer<typeof ContactMethodList>;

/** What sending a verification code did; the method is saved either way. */
export const ContactMethodCreated = z.object({
  method: ContactMethod,
  /** Whether the code went out; if not, why (fix the settings, then send it again). */
  codeSent: z.boolean(),
  sendError: z.string().nullable(),
});
export type ContactMethodCreated = z.infer<typeof ContactMethodCreated>;

export const ContactMethodVerifyInput = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from the test message'),
});
export type ContactMethodVerifyInput = z.infer<typeof ContactMethodVerifyInput>;

export const ContactMethodIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
export const UserContactMethodsParams = z.strictObject({
  userId: z.coerce.number().int().positive(),
});

/** A person's quiet hours (issue 18 item 5): warnings to them wait; critical ones do not. */
export const UserQuietHours = z.strictObject({
  windows: z.array(QuietHoursWindow).max(14, 'At most 14 windows'),
});
export type UserQuietHours = z.infer<typeof UserQuietHours>;

/** Which escalation policy monitors carrying a tag use (a monitor's own policy wins). */
export const TagPolicy = z.strictObject({
  tag: z.string().trim().min(1, 'Enter a tag').max(50, 'Tags are at most 50 characters'),
  policyId: z.number().int().positive('Choose a policy'),
});
export type TagPolicy = z.infer<typeof TagPolicy>;
export const TagPolicyList = z.strictObject({
  items: z.array(TagPolicy).max(200, 'At most 200 tags'),
});
export type TagPolicyList = z.infer<typeof TagPolicyList>;
