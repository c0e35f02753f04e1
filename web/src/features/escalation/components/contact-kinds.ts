import type { ContactMethod, ContactMethodInput, ContactMethodKind } from '@pagewatch/contract';

/** A config value as text; anything but a string or number shows as nothing. */
const text = (v: unknown): string =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : '';

/** One text box of a kind's form: where its value goes in the input. */
export interface KindField {
  key: string;
  label: string;
  part: 'config' | 'secrets';
  kind: 'text' | 'url' | 'code';
  hint?: string;
}

/** The few fields each kind needs; the rest keep the channel kind's defaults. */
export const contactKinds: Record<
  ContactMethodKind,
  { label: string; fields: KindField[]; describe: (m: ContactMethod) => string }
> = {
  email: {
    label: 'Email',
    fields: [{ key: 'address', label: 'Address', part: 'config', kind: 'text' }],
    describe: (m) => text(m.config.address),
  },
  webhook: {
    label: 'Webhook',
    fields: [{ key: 'url', label: 'URL', part: 'config', kind: 'url' }],
    describe: (m) => text(m.config.url),
  },
  ntfy: {
    label: 'ntfy',
    fields: [
      { key: 'serverUrl', label: 'Server', part: 'config', kind: 'url' },
      { key: 'topic', label: 'Topic', part: 'config', kind: 'code' },
    ],
    describe: (m) => `${text(m.config.serverUrl)} · ${text(m.config.topic)}`,
  },
  slack: {
    label: 'Slack direct message',
    fields: [
      {
        key: 'webhookUrl',
        label: 'Incoming webhook URL',
        part: 'secrets',
        kind: 'url',
        hint: 'A webhook that posts to your direct messages; stored sealed, never shown again.',
      },
    ],
    describe: () => 'Slack webhook (hidden)',
  },
  telegram: {
    label: 'Telegram',
    fields: [
      { key: 'chatId', label: 'Chat id', part: 'config', kind: 'code' },
      { key: 'botToken', label: 'Bot token', part: 'secrets', kind: 'code' },
    ],
    describe: (m) => `chat ${text(m.config.chatId)}`,
  },
  pushover: {
    label: 'Pushover',
    fields: [
      { key: 'userKey', label: 'User key', part: 'secrets', kind: 'code' },
      { key: 'appToken', label: 'Application token', part: 'secrets', kind: 'code' },
    ],
    describe: () => 'Pushover (keys hidden)',
  },
};

/** The request body from the form's values; empty optional values are left out. */
export function toInput(
  kind: ContactMethodKind,
  label: string,
  values: Record<string, string>,
): ContactMethodInput {
  const config: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  for (const f of contactKinds[kind].fields) {
    const v = (values[f.key] ?? '').trim();
    if (v === '' && f.key === 'serverUrl') continue;
    (f.part === 'config' ? config : secrets)[f.key] = v;
  }
  return { kind, label, config, secrets } as ContactMethodInput;
}
