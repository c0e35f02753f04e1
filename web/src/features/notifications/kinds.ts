import type { ChannelKind } from '@pagewatch/contract';

/** How one setting of a kind is typed in; values are text until the schema reads them. */
export interface FieldSpec {
  key: string;
  part: 'config' | 'secrets';
  label: string;
  input: 'text' | 'url' | 'number' | 'select' | 'checkbox' | 'lines' | 'headers' | 'secret';
  options?: readonly string[];
  hint?: string;
  placeholder?: string;
  optional?: boolean;
}

interface KindSpec {
  label: string;
  /** Two letters on a coloured tile: the kind at a glance without a logo per service. */
  glyph: string;
  blurb: string;
  fields: readonly FieldSpec[];
}

const webhookUrl = (service: string): FieldSpec => ({
  key: 'webhookUrl',
  part: 'secrets',
  label: 'Webhook URL',
  input: 'secret',
  hint: `The incoming-webhook address ${service} gives you; it works as a password.`,
});
const chatChannel: FieldSpec = {
  key: 'channel',
  part: 'config',
  label: 'Channel',
  input: 'text',
  optional: true,
  placeholder: '#ops',
  hint: 'Overrides the webhook’s own channel.',
};
const username: FieldSpec = {
  key: 'username',
  part: 'config',
  label: 'Post as',
  input: 'text',
  optional: true,
  placeholder: 'Pagewatch',
};

/** Per kind: its label, glyph and fields, in the order the form shows them. */
export const channelKindSpecs: Record<ChannelKind, KindSpec> = {
  webhook: {
    label: 'Webhook',
    glyph: 'WH',
    blurb: 'POSTs the event as JSON to any URL.',
    fields: [
      { key: 'url', part: 'config', label: 'URL', input: 'url' },
      { key: 'method', part: 'config', label: 'Method', input: 'select', options: ['POST', 'PUT'] },
      {
        key: 'headers',
        part: 'config',
        label: 'Headers',
        input: 'headers',
        optional: true,
        hint: 'One per line, as Name: value.',
      },
      {
        key: 'signingSecret',
        part: 'secrets',
        label: 'Signing secret',
        input: 'secret',
        optional: true,
        hint: 'Signs each body with HMAC-SHA256 in X-Pagewatch-Signature.',
      },
    ],
  },
  slack: {
    label: 'Slack',
    glyph: 'SL',
    blurb: 'Posts to a channel through an incoming webhook.',
    fields: [webhookUrl('Slack'), chatChannel, username],
  },
  discord: {
    label: 'Discord',
    glyph: 'DC',
    blurb: 'Posts to a channel through its webhook.',
    fields: [webhookUrl('Discord'), username],
  },
  teams: {
    label: 'Microsoft Teams',
    glyph: 'MT',
    blurb: 'Posts a card through a Teams workflow webhook.',
    fields: [webhookUrl('Teams')],
  },
  mattermost: {
    label: 'Mattermost',
    glyph: 'MM',
    blurb: 'Posts through an incoming webhook.',
    fields: [webhookUrl('Mattermost'), chatChannel, username],
  },
  rocketchat: {
    label: 'Rocket.Chat',
    glyph: 'RC',
    blurb: 'Posts through an incoming webhook.',
    fields: [webhookUrl('Rocket.Chat'), chatChannel, username],
  },
  telegram: {
    label: 'Telegram',
    glyph: 'TG',
    blurb: 'A bot sends the message to a chat or channel.',
    fields: [
      { key: 'botToken', part: 'secrets', label: 'Bot token', input: 'secret' },
      {
        key: 'chatId',
        part: 'config',
        label: 'Chat',
        input: 'text',
        placeholder: '-1001234567890 or @channel',
      },
      {
        key: 'messageThreadId',
        part: 'config',
        label: 'Topic (thread) id',
        input: 'number',
        optional: true,
      },
      { key: 'baseUrl', part: 'config', label: 'API address', input: 'url', optional: true },
    ],
  },
  ntfy: {
    label: 'ntfy',
    glyph: 'NT',
    blurb: 'Publishes to an ntfy topic.',
    fields: [
      { key: 'topic', part: 'config', label: 'Topic', input: 'text' },
      { key: 'serverUrl', part: 'config', label: 'Server', input: 'url', optional: true },
      {
        key: 'priority',
        part: 'config',
        label: 'Priority',
        input: 'number',
        optional: true,
        hint: '1 (min) to 5 (max); 4 by default.',
      },
      { key: 'token', part: 'secrets', label: 'Access token', input: 'secret', optional: true },
    ],
  },
  gotify: {
    label: 'Gotify',
    glyph: 'GO',
    blurb: 'Pushes a message to a Gotify server.',
    fields: [
      { key: 'serverUrl', part: 'config', label: 'Server', input: 'url' },
      { key: 'appToken', part: 'secrets', label: 'Application token', input: 'secret' },
      {
        key: 'priority',
        part: 'config',
        label: 'Priority',
        input: 'number',
        optional: true,
        hint: '0 to 10; 8 by default.',
      },
    ],
  },
  pushover: {
    label: 'Pushover',
    glyph: 'PO',
    blurb: 'Pushes to phones through Pushover.',
    fields: [
      { key: 'userKey', part: 'secrets', label: 'User key', input: 'secret' },
      { key: 'appToken', part: 'secrets', label: 'Application token', input: 'secret' },
      {
        key: 'priority',
        part: 'config',
        label: 'Priority',
        input: 'number',
        optional: true,
        hint: '−2 (lowest) to 2 (emergency); 1 by default.',
      },
      { key: 'device', part: 'config', label: 'Device', input: 'text', optional: true },
      { key: 'sound', part: 'config', label: 'Sound', input: 'text', optional: true },
      { key: 'apiUrl', part: 'config', label: 'API address', input: 'url', optional: true },
    ],
  },
  pagerduty: {
    label: 'PagerDuty',
    glyph: 'PD',
    blurb: 'Triggers and resolves PagerDuty incidents (Events API v2).',
    fields: [
      {
        key: 'routingKey',
        part: 'secrets',
        label: 'Integration (routing) key',
        input: 'secret',
      },
      {
        key: 'severity',
        part: 'config',
        label: 'Severity',
        input: 'select',
        options: ['critical', 'error', 'warning', 'info'],
      },
      { key: 'eventsUrl', part: 'config', label: 'Events address', input: 'url', optional: true },
    ],
  },
  opsgenie: {
    label: 'Opsgenie',
    glyph: 'OG',
    blurb: 'Opens and closes Opsgenie alerts.',
    fields: [
      { key: 'apiKey', part: 'secrets', label: 'API key', input: 'secret' },
      {
        key: 'priority',
        part: 'config',
        label: 'Priority',
        input: 'select',
        options: ['P1', 'P2', 'P3', 'P4', 'P5'],
      },
      {
        key: 'apiUrl',
        part: 'config',
        label: 'API address',
        input: 'url',
        optional: true,
        hint: 'https://api.eu.opsgenie.com for the EU.',
      },
    ],
  },
  email: {
    label: 'Email',
    glyph: '@',
    blurb: 'Sends mail through your SMTP server.',
    fields: [
      { key: 'host', part: 'config', label: 'SMTP server', input: 'text' },
      { key: 'port', part: 'config', label: 'Port', input: 'number', optional: true },
      {
        key: 'security',
        part: 'config',
        label: 'Security',
        input: 'select',
        options: ['starttls', 'tls', 'none'],
        hint: 'starttls on 587, tls on 465.',
      },
      { key: 'username', part: 'config', label: 'User name', input: 'text', optional: true },
      { key: 'password', part: 'secrets', label: 'Password', input: 'secret', optional: true },
      { key: 'from', part: 'config', label: 'From', input: 'text' },
      {
        key: 'to',
        part: 'config',
        label: 'To',
        input: 'lines',
        hint: 'One address per line; up to 50.',
      },
      {
        key: 'ignoreTlsErrors',
        part: 'config',
        label: 'Accept any certificate from the server',
        input: 'checkbox',
      },
    ],
  },
};

/** Placeholders a template may use (docs/notifications.md, "Templates"). */
export const templatePlaceholders = [
  '{{event}}',
  '{{monitor.name}}',
  '{{monitor.target}}',
  '{{status}}',
  '{{previous_status}}',
  '{{cause.message}}',
  '{{cause.code}}',
  '{{outage}}',
  '{{url}}',
  '{{at}}',
  '{{incident.title}}',
  '{{incident.message}}',
  '{{certificate.days_left}}',
] as const;
