import { ChannelEntry, type ImportItem } from '@pagewatch/contract';
import { chatProviders, str, type Form, type Mapped } from './channel-kinds.js';
import { item, kumaKeys, skipped } from './keys.js';
import type { KumaNotification } from './source.js';

const list = (v: unknown): string[] =>
  str(v)
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean);

function webhook(f: Form): Mapped {
  const notes: string[] = [];
  let headers: { name: string; value: string }[] = [];
  const extra = str(f.webhookAdditionalHeaders);
  if (extra !== '') {
    try {
      headers = Object.entries(JSON.parse(extra) as Form).map(([name, value]) => ({
        name,
        value: str(value),
      }));
    } catch {
      notes.push('Its additional headers are not valid JSON and were left out');
    }
  }
  const type = str(f.webhookContentType) || 'json';
  if (type !== 'json') {
    notes.push(
      `Kuma sent ${type === 'custom' ? 'a custom body' : 'form data'}; Pagewatch sends its JSON event (docs/notifications.md)`,
    );
  } else {
    notes.push("The body is Pagewatch's JSON event, not Kuma's {heartbeat, monitor, msg}");
  }
  const method = str(f.httpMethod).toUpperCase() === 'PUT' ? 'PUT' : 'POST';
  return {
    kind: 'webhook',
    config: { url: str(f.webhookURL), method, headers },
    secrets: {},
    notes,
  };
}

function email(f: Form): Mapped {
  const notes: string[] = [];
  const to = [...list(f.smtpTo), ...list(f.smtpCC), ...list(f.smtpBCC)];
  if (list(f.smtpCC).length + list(f.smtpBCC).length > 0)
    notes.push('CC and BCC recipients became recipients');
  if (str(f.customSubject) !== '' || str(f.customBody) !== '') {
    notes.push(
      "Kuma's custom subject and body were left out; Pagewatch's templates use other placeholders",
    );
  }
  // Kuma's From may be `"Name" <address>`; Pagewatch takes the address.
  const from = /<([^>]+)>/.exec(str(f.smtpFrom))?.[1] ?? str(f.smtpFrom);
  const password = str(f.smtpPassword);
  return {
    kind: 'email',
    config: {
      host: str(f.smtpHost),
      port: Number(f.smtpPort ?? 587) || 587,
      security: f.smtpSecure === true || f.smtpSecure === 'true' ? 'tls' : 'starttls',
      ignoreTlsErrors: f.smtpIgnoreTLSError === true,
      username: str(f.smtpUsername),
      from,
      to,
    },
    secrets: password === '' ? {} : { password },
    notes,
  };
}

const providers: Record<string, (f: Form) => Mapped> = {
  webhook,
  smtp: email,
  slack: (f) => ({
    kind: 'slack',
    config: { channel: str(f.slackchannel), username: str(f.slackusername) },
    secrets: { webhookUrl: str(f.slackwebhookURL) },
  }),
  telegram: (f) => ({
    kind: 'telegram',
    config: {
      baseUrl: str(f.telegramServerUrl) || 'https://api.telegram.org',
      chatId: str(f.telegramChatID),
      messageThreadId:
        Number(f.telegramMessageThreadID) > 0 ? Number(f.telegramMessageThreadID) : null,
    },
    secrets: { botToken: str(f.telegramBotToken) },
  }),
  ntfy: (f) => ({
    kind: 'ntfy',
    config: {
      serverUrl: str(f.ntfyserverurl) || 'https://ntfy.sh',
      topic: str(f.ntfytopic),
      priority: Number(f.ntfyPriority ?? 4),
    },
    secrets: f.ntfyAuthenticationMethod === 'accessToken' ? { token: str(f.ntfyaccesstoken) } : {},
    notes:
      f.ntfyAuthenticationMethod === 'usernamePassword'
        ? [
            'ntfy user name and password sign-in was left out; Pagewatch signs in with an access token',
          ]
        : [],
  }),
  ...chatProviders,
};

const issues = (e: { issues: readonly { path: PropertyKey[]; message: string }[] }) =>
  e.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');

export interface MappedChannels {
  entries: ChannelEntry[];
  items: ImportItem[];
  /** Kuma notification id → channel key. */
  keyOf: Map<number, string>;
}

/** Kuma's notifications of kinds Pagewatch has, secrets carried over (sealed when applied). */
export function mapChannels(notifications: readonly KumaNotification[]): MappedChannels {
  const out: MappedChannels = { entries: [], items: [], keyOf: new Map() };
  for (const n of notifications) {
    const type = str(n.config.type);
    const source = `notification #${n.id} (${type || 'unknown type'})`;
    const provider = providers[type];
    if (!provider) {
      out.items.push(
        skipped('channel', source, n.name, `Pagewatch has no ${type || 'such'} channel`),
      );
      continue;
    }
    const mapped = provider(n.config);
    if ('skip' in mapped) {
      out.items.push(skipped('channel', source, n.name, mapped.skip, mapped.notes ?? []));
      continue;
    }
    const key = kumaKeys.channel(n.id);
    const entry = {
      key,
      kind: mapped.kind,
      name: n.name.trim().slice(0, 100) || `Kuma notification ${n.id}`,
      isDefault: n.isDefault,
      enabled: n.active,
      config: mapped.config,
      secrets: mapped.secrets,
    };
    const parsed = ChannelEntry.safeParse(entry);
    if (!parsed.success) {
      out.items.push(
        skipped(
          'channel',
          source,
          n.name,
          `Pagewatch refuses its settings: ${issues(parsed.error)}`,
        ),
      );
      continue;
    }
    out.entries.push(parsed.data);
    out.keyOf.set(n.id, key);
    out.items.push(item('channel', source, n.name, key, mapped.notes ?? []));
  }
  return out;
}
