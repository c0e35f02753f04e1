import { z } from 'zod';

/** What an audit line is about, as grouped in the filter and named in sentences. */
export const auditAreas = {
  auth: 'Sign-in',
  user: 'People',
  api_key: 'API keys',
  monitor: 'Monitors',
  incident: 'Incidents',
  maintenance: 'Maintenance',
  status_page: 'Status pages',
  subscriber: 'Status pages',
  notification_channel: 'Notification channels',
  delivery: 'Notification channels',
  escalation_policy: 'Escalation',
  escalation: 'Escalation',
  oncall_schedule: 'Escalation',
  slo: 'SLOs',
  contact_method: 'People',
  tag_policy: 'Escalation',
  settings: 'Settings',
  oidc_provider: 'Settings',
  backup: 'Settings',
  import: 'Settings',
  config: 'Configuration files',
  location: 'Locations',
  report: 'Reports',
  probe: 'Locations',
} as const;

interface ActionWording {
  /** The option in the filter: what happened, without who. */
  label: string;
  /** The sentence's verb after the person: "Alice <paused> monitor “API”". */
  verb: string;
  /** The sentence names no target: it is the person themselves, or the summary says it better. */
  self?: boolean;
}

/**
 * Every action the server writes to the audit log, with its wording. The server's `audit()`
 * accepts only these, so a new action cannot be written without a name and a filter entry.
 */
export const auditActionWording = {
  'auth.setup': { label: 'Set up the instance', verb: 'set up Pagewatch', self: true },
  'auth.login': { label: 'Signed in', verb: 'signed in', self: true },
  'auth.login_failed': { label: 'Failed sign-in', verb: 'failed to sign in as' },
  'auth.logout': { label: 'Signed out', verb: 'signed out', self: true },
  'auth.logout_all': { label: 'Signed out everywhere', verb: 'signed out everywhere', self: true },
  'auth.password_changed': {
    label: 'Changed own password',
    verb: 'changed their password',
    self: true,
  },
  'auth.password_reset_requested': {
    label: 'Asked for a reset link',
    verb: 'asked for a password reset link for',
  },
  'auth.password_reset': { label: 'Reset a password by link', verb: 'reset the password of' },
  'auth.password_reset_link_issued': {
    label: 'Reset link printed on the server',
    verb: 'printed a password reset link for',
  },
  'auth.totp_enabled': {
    label: 'Turned on two-factor',
    verb: 'turned on two-factor sign-in',
    self: true,
  },
  'auth.totp_disabled': {
    label: 'Turned off two-factor',
    verb: 'turned off two-factor sign-in',
    self: true,
  },
  'auth.recovery_code_used': {
    label: 'Used a recovery code',
    verb: 'used a recovery code',
    self: true,
  },
  'auth.passkey_registered': { label: 'Added a passkey', verb: 'added a passkey', self: true },
  'auth.passkey_renamed': { label: 'Renamed a passkey', verb: 'renamed a passkey', self: true },
  'auth.passkey_removed': { label: 'Removed a passkey', verb: 'removed a passkey', self: true },
  'auth.passkey_clone_suspected': {
    label: 'Passkey refused: counter went back',
    verb: 'presented a possibly cloned passkey of',
  },
  'user.created': { label: 'Created a person', verb: 'created' },
  'user.updated': { label: 'Changed a person', verb: 'changed' },
  'user.deleted': { label: 'Deleted a person', verb: 'deleted' },
  'user.password_reset': { label: 'Set a person’s password', verb: 'set the password of' },
  'user.invited': { label: 'Invited someone', verb: 'invited someone', self: true },
  'user.invitation_revoked': {
    label: 'Revoked an invitation',
    verb: 'revoked an invitation',
    self: true,
  },
  'user.invitation_accepted': {
    label: 'Accepted an invitation',
    verb: 'accepted an invitation and joined',
    self: true,
  },
  'user.profile_updated': { label: 'Changed own name', verb: 'changed their name', self: true },
  'user.email_change_requested': {
    label: 'Asked to change own email',
    verb: 'asked to change their email',
    self: true,
  },
  'user.email_changed': { label: 'Changed own email', verb: 'changed their email', self: true },
  'api_key.created': { label: 'Created an API key', verb: 'created' },
  'api_key.revoked': { label: 'Revoked an API key', verb: 'revoked' },
  'monitor.created': { label: 'Created a monitor', verb: 'created' },
  'monitor.updated': { label: 'Changed a monitor', verb: 'changed' },
  'monitor.paused': { label: 'Paused a monitor', verb: 'paused' },
  'monitor.resumed': { label: 'Resumed a monitor', verb: 'resumed' },
  'monitor.deleted': { label: 'Deleted a monitor', verb: 'deleted' },
  'monitor.push_token_rotated': {
    label: 'Replaced a push URL',
    verb: 'replaced the push URL of',
  },
  'incident.created': { label: 'Declared an incident', verb: 'declared' },
  'incident.edited': { label: 'Edited an incident', verb: 'edited' },
  'incident.updated': { label: 'Posted an incident update', verb: 'posted an update on' },
  'incident.resolved': { label: 'Resolved an incident', verb: 'resolved' },
  'incident.deleted': { label: 'Deleted an incident', verb: 'deleted' },
  'maintenance.created': { label: 'Scheduled maintenance', verb: 'scheduled' },
  'maintenance.updated': { label: 'Changed maintenance', verb: 'changed' },
  'maintenance.cancelled': { label: 'Cancelled maintenance', verb: 'cancelled' },
  'maintenance.deleted': { label: 'Deleted maintenance', verb: 'deleted' },
  'monitor.correction_added': { label: 'Corrected availability', verb: 'left a period out of' },
  'monitor.correction_removed': { label: 'Removed a correction', verb: 'removed a correction of' },
  'report.link_created': { label: 'Shared a report', verb: 'shared' },
  'report.link_revoked': { label: 'Revoked a report link', verb: 'revoked a link to' },
  'report.schedule_created': { label: 'Scheduled a report email', verb: 'scheduled' },
  'report.schedule_updated': { label: 'Changed a report email', verb: 'changed' },
  'report.schedule_deleted': { label: 'Deleted a report email', verb: 'deleted' },
  'report.schedule_sent': { label: 'Sent a monthly report', verb: 'sent' },
  'status_page.created': { label: 'Created a status page', verb: 'created' },
  'status_page.updated': { label: 'Changed a status page', verb: 'changed' },
  'status_page.deleted': { label: 'Deleted a status page', verb: 'deleted' },
  'status_page.logo_set': { label: 'Uploaded a logo', verb: 'uploaded a logo for' },
  'status_page.logo_removed': { label: 'Removed a logo', verb: 'removed the logo of' },
  'subscriber.removed': { label: 'Removed a subscriber', verb: 'removed a subscriber of' },
  'notification_channel.created': { label: 'Created a channel', verb: 'created' },
  'notification_channel.updated': { label: 'Changed a channel', verb: 'changed' },
  'notification_channel.deleted': { label: 'Deleted a channel', verb: 'deleted' },
  'notification_channel.tested': { label: 'Sent a test', verb: 'sent a test through' },
  'notification_channel.attached': {
    label: 'Attached a channel to monitors',
    verb: 'attached monitors to',
  },
  'delivery.retried': { label: 'Retried a delivery', verb: 'retried' },
  'escalation_policy.created': { label: 'Created an escalation policy', verb: 'created' },
  'escalation_policy.updated': { label: 'Changed an escalation policy', verb: 'changed' },
  'escalation_policy.deleted': { label: 'Deleted an escalation policy', verb: 'deleted' },
  'escalation.acknowledged': { label: 'Acknowledged an alert', verb: 'acknowledged' },
  'escalation.unreachable': {
    label: 'A person could not be reached',
    verb: 'could not reach a target of',
  },
  'contact_method.created': { label: 'Added a contact method', verb: 'added a contact method' },
  'contact_method.verified': {
    label: 'Verified a contact method',
    verb: 'verified a contact method',
  },
  'contact_method.deleted': {
    label: 'Removed a contact method',
    verb: 'removed a contact method',
  },
  'tag_policy.updated': {
    label: 'Changed tag policies',
    verb: 'changed which policy tags use',
    self: true,
  },
  'user.quiet_hours_updated': {
    label: 'Changed own quiet hours',
    verb: 'changed their quiet hours',
    self: true,
  },
  'oncall_schedule.created': { label: 'Created an on-call schedule', verb: 'created' },
  'oncall_schedule.updated': { label: 'Changed an on-call schedule', verb: 'changed' },
  'oncall_schedule.deleted': { label: 'Deleted an on-call schedule', verb: 'deleted' },
  'slo.created': { label: 'Created an SLO', verb: 'created' },
  'slo.updated': { label: 'Changed an SLO', verb: 'changed' },
  'slo.deleted': { label: 'Deleted an SLO', verb: 'deleted' },
  'settings.updated': { label: 'Changed settings', verb: 'changed the settings' },
  'settings.ownership_transferred': {
    label: 'Transferred ownership',
    verb: 'handed ownership to',
  },
  'settings.data_deleted': { label: 'Deleted all data', verb: 'deleted all data' },
  'oidc_provider.created': { label: 'Added a sign-in provider', verb: 'added' },
  'oidc_provider.updated': { label: 'Changed a sign-in provider', verb: 'changed' },
  'oidc_provider.deleted': { label: 'Removed a sign-in provider', verb: 'removed' },
  'backup.download': { label: 'Downloaded a backup', verb: 'downloaded a backup' },
  'backup.schedule': { label: 'Changed backup schedule', verb: 'changed the backup schedule' },
  'import.uptime_kuma': { label: 'Imported from Uptime Kuma', verb: 'imported from Uptime Kuma' },
  'import.gatus': { label: 'Imported from Gatus', verb: 'imported from Gatus' },
  'config.file_applied': {
    label: 'Configuration files applied',
    verb: 'applied the configuration files',
  },
  'config.detached': { label: 'Detached from files', verb: 'detached from configuration files' },
  'location.created': { label: 'Added a location', verb: 'added' },
  'location.updated': { label: 'Changed a location', verb: 'changed' },
  'location.deleted': { label: 'Deleted a location', verb: 'deleted' },
  'probe.created': { label: 'Added a probe', verb: 'added' },
  'probe.token_rotated': { label: 'Rotated a probe token', verb: 'rotated the token of' },
  'probe.revoked': { label: 'Revoked a probe', verb: 'revoked' },
} as const satisfies Record<string, ActionWording>;

export type AuditAction = keyof typeof auditActionWording;
export const auditActionNames = Object.keys(auditActionWording) as AuditAction[];
export type AuditArea = keyof typeof auditAreas;

/** The area of an action: the part before the dot. */
export const areaOf = (action: string): string => action.slice(0, action.indexOf('.'));

/** What an audit line's target type is called in a sentence. */
export const auditTargetNoun: Record<string, string> = {
  monitor: 'monitor',
  incident: 'incident',
  maintenance: 'maintenance window',
  status_page: 'status page',
  notification_channel: 'channel',
  api_key: 'API key',
  location: 'location',
  probe: 'probe',
  user: '',
  delivery: 'delivery',
  settings: '',
};

export const AuditEvent = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  actor: z.object({
    type: z.enum(['user', 'api_key', 'system', 'anonymous']),
    id: z.number().int().nullable(),
    label: z.string(),
  }),
  action: z.string(),
  target: z
    .object({
      type: z.string(),
      id: z.string().nullable(),
      /** The target's name today, or as the line named it when it is gone; null if unknown. */
      label: z.string().nullable(),
    })
    .nullable(),
  ip: z.string().nullable(),
  summary: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditPage = z.object({
  items: z.array(AuditEvent),
  nextCursor: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;

/** One action, or a whole area as `monitor.*`. */
const actionFilter = z
  .string()
  .max(100)
  .refine(
    (v) =>
      v in auditActionWording || (v.endsWith('.*') && Object.hasOwn(auditAreas, v.slice(0, -2))),
    { message: 'Choose an action from the list' },
  );

export const AuditQuery = z
  .strictObject({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    before: z.coerce.number().int().positive().optional(),
    action: actionFilter.optional(),
    /** A person: their own lines and those of their API keys. */
    userId: z.coerce.number().int().positive().optional(),
    /** From this instant (inclusive)… */
    from: z.iso
      .datetime({ offset: true, message: 'Give the start as an ISO date and time' })
      .optional(),
    /** …to this one (exclusive). */
    to: z.iso
      .datetime({ offset: true, message: 'Give the end as an ISO date and time' })
      .optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    path: ['to'],
    message: 'The end of the range is before its start',
  });
export type AuditQuery = z.infer<typeof AuditQuery>;
