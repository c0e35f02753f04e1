import { ChannelEntry, type ImportItem } from '@pagewatch/contract';
import { item, skipped } from '../uptime-kuma/keys.js';
import { str } from './keys.js';
import type { GatusMap } from './read.js';

type Mapped = { kind: string; config: GatusMap; secrets: GatusMap; notes?: string[] };

const num = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;
const webhook = (kind: string) => (p: GatusMap) => ({
  kind,
  config: {},
  secrets: { webhookUrl: str(p['webhook-url']) },
});

/** Gatus alerting providers (alerting/provider/*) that Pagewatch has a channel kind for. */
const providers: Record<string, (p: GatusMap) => Mapped> = {
  slack: webhook('slack'),
  discord: webhook('discord'),
  teams: webhook('teams'),
  'teams-workflows': webhook('teams'),
  mattermost: (p) => ({
    kind: 'mattermost',
    config: { channel: str(p.channel) },
    secrets: { webhookUrl: str(p['webhook-url']) },
  }),
  pagerduty: (p) => ({
    kind: 'pagerduty',
    config: {},
    secrets: { routingKey: str(p['integration-key']) },
  }),
  telegram: (p) => ({
    kind: 'telegram',
    config: {
      chatId: str(p.id),
      ...(p['api-url'] ? { baseUrl: str(p['api-url']) } : {}),
      ...(p['topic-id'] ? { messageThreadId: Number(p['topic-id']) } : {}),
    },
    secrets: { botToken: str(p.token) },
  }),
  email: (p) => {
    const port = num(p.port, 587);
    const client = (p.client ?? {}) as GatusMap;
    return {
      kind: 'email',
      config: {
        host: str(p.host),
        port,
        // Gatus uses implicit TLS on 465 and STARTTLS otherwise (gomail's rule).
        security: port === 465 ? 'tls' : 'starttls',
        ignoreTlsErrors: client.insecure === true,
        username: str(p.username || p.from),
        from: str(p.from),
        to: str(p.to)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      },
      secrets: p.password ? { password: str(p.password) } : {},
    };
  },
  custom: (p) => {
    const method = str(p.method || 'GET').toUpperCase();
    const headers = Object.entries((p.headers ?? {}) as GatusMap).map(([name, value]) => ({
      name,
      value: str(value),
    }));
    const notes = ["Pagewatch sends its own JSON event; Gatus's body template was left out"];
    if (method !== 'POST' && method !== 'PUT') notes.push(`${method} became POST`);
    return {
      kind: 'webhook',
      config: { url: str(p.url), method: method === 'PUT' ? 'PUT' : 'POST', headers },
      secrets: {},
      notes,
    };
  },
  ntfy: (p) => ({
    kind: 'ntfy',
    config: {
      serverUrl: str(p.url || 'https://ntfy.sh'),
      topic: str(p.topic),
      priority: num(p.priority, 3),
    },
    secrets: p.token ? { token: str(p.token) } : {},
  }),
  gotify: (p) => ({
    kind: 'gotify',
    config: { serverUrl: str(p['server-url']), priority: num(p.priority, 5) },
    secrets: { appToken: str(p.token) },
  }),
  pushover: (p) => ({
    kind: 'pushover',
    config: {
      priority: num(p.priority, 0),
      device: str(p.device),
      sound: str(p.sound),
    },
    secrets: { appToken: str(p['application-token']), userKey: str(p['user-key']) },
  }),
  opsgenie: (p) => ({
    kind: 'opsgenie',
    config: { priority: str(p.priority || 'P1') },
    secrets: { apiKey: str(p['api-key']) },
  }),
};

export const gatusChannelKey = (provider: string) => `gatus-alerting-${provider}`;

export interface MappedChannels {
  entries: ChannelEntry[];
  items: ImportItem[];
  /** Provider → channel key, for providers that were mapped. */
  keyOf: Map<string, string>;
  /** Provider → its `default-alert` (thresholds alerts of its type fall back to). */
  defaults: Map<string, GatusMap>;
}

const issues = (e: { issues: readonly { path: PropertyKey[]; message: string }[] }) =>
  e.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');

/** One channel per provider of Gatus's `alerting:` block, secrets inline (sealed when applied). */
export function mapAlerting(alerting: GatusMap): MappedChannels {
  const out: MappedChannels = { entries: [], items: [], keyOf: new Map(), defaults: new Map() };
  for (const [provider, raw] of Object.entries(alerting)) {
    const p = (raw ?? {}) as GatusMap;
    const source = `alerting provider "${provider}"`;
    const name = `Gatus ${provider}`;
    if (p['default-alert']) out.defaults.set(provider, p['default-alert'] as GatusMap);
    const map = providers[provider];
    if (!map) {
      out.items.push(skipped('channel', source, name, `Pagewatch has no ${provider} channel`));
      continue;
    }
    const mapped = map(p);
    const notes = [...(mapped.notes ?? [])];
    if (Array.isArray(p.overrides) && p.overrides.length > 0) {
      notes.push('Its per-group overrides were left out: every group alerts the same way');
    }
    const key = gatusChannelKey(provider);
    const entry = { key, kind: mapped.kind, name, config: mapped.config, secrets: mapped.secrets };
    const parsed = ChannelEntry.safeParse(entry);
    if (!parsed.success) {
      const reason = `Pagewatch refuses its settings: ${issues(parsed.error)}`;
      out.items.push(skipped('channel', source, name, reason));
      continue;
    }
    out.entries.push(parsed.data);
    out.keyOf.set(provider, key);
    out.items.push(item('channel', source, name, key, notes));
  }
  return out;
}
