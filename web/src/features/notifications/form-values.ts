import {
  channelKinds,
  type ChannelCreateInput,
  type ChannelKind,
  type NotificationChannel,
  type QuietHoursWindow,
} from '@pagewatch/contract';
import { channelKindSpecs, type FieldSpec } from './kinds';

/** What the channel form holds: every setting as typed, keyed "config.url", "secrets.token". */
export interface ChannelValues {
  kind: ChannelKind;
  name: string;
  isDefault: boolean;
  enabled: boolean;
  templateTitle: string;
  templateBody: string;
  fields: Record<string, string | boolean>;
  /** Secrets stored on the server (editing): left empty, they are kept. */
  secretsSet: readonly string[];
  /** Delivery safety (ADR 62): the fallback channel's id ('' for none) and its threshold. */
  fallbackChannelId: string;
  failThreshold: string;
  /** Quiet hours (ADR 68): windows, and the channel warnings go to meanwhile ('' to wait). */
  quietWindows: QuietHoursWindow[];
  quietRerouteChannelId: string;
}

export const fieldKey = (f: FieldSpec) => `${f.part}.${f.key}`;

/** Defaults the person sees instead of an empty box (the schema's own defaults). */
const shownDefaults: Record<string, string> = {
  'config.method': 'POST',
  'config.severity': 'critical',
  'config.priority': '',
  'config.security': 'starttls',
};

export function emptyChannel(kind: ChannelKind = 'webhook'): ChannelValues {
  const fields: Record<string, string | boolean> = {};
  for (const f of channelKindSpecs[kind].fields)
    fields[fieldKey(f)] = f.input === 'checkbox' ? false : (shownDefaults[fieldKey(f)] ?? '');
  if (kind === 'opsgenie') fields['config.priority'] = 'P2';
  return {
    kind,
    name: '',
    isDefault: false,
    enabled: true,
    templateTitle: '',
    templateBody: '',
    fields,
    secretsSet: [],
    fallbackChannelId: '',
    failThreshold: '3',
    quietWindows: [],
    quietRerouteChannelId: '',
  };
}

function configText(f: FieldSpec, value: unknown): string | boolean {
  if (f.input === 'checkbox') return value === true;
  if (value === null || value === undefined) return '';
  if (f.input === 'lines') return (value as string[]).join('\n');
  if (f.input === 'headers')
    return (value as { name: string; value: string }[])
      .map((h) => `${h.name}: ${h.value}`)
      .join('\n');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

export function fromChannel(c: NotificationChannel): ChannelValues {
  const values = emptyChannel(c.kind);
  for (const f of channelKindSpecs[c.kind].fields)
    if (f.part === 'config') values.fields[fieldKey(f)] = configText(f, c.config[f.key]);
  return {
    ...values,
    name: c.name,
    isDefault: c.isDefault,
    enabled: c.enabled,
    templateTitle: c.template.title,
    templateBody: c.template.body,
    secretsSet: c.secretsSet,
    fallbackChannelId: c.fallbackChannelId === null ? '' : String(c.fallbackChannelId),
    failThreshold: String(c.failThreshold),
    quietWindows: c.quietHours.windows,
    quietRerouteChannelId:
      c.quietHours.rerouteChannelId === null ? '' : String(c.quietHours.rerouteChannelId),
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function readField(f: FieldSpec, raw: string | boolean): unknown {
  if (typeof raw === 'boolean') return raw;
  const text = raw.trim();
  switch (f.input) {
    case 'number':
      if (text === '') return f.key === 'messageThreadId' ? null : undefined;
      return Number.isFinite(Number(text)) ? Number(text) : text;
    case 'lines':
      return lines(raw);
    case 'headers':
      return lines(raw).map((l) => {
        const at = l.indexOf(':');
        return at < 0
          ? { name: l, value: '' }
          : { name: l.slice(0, at).trim(), value: l.slice(at + 1).trim() };
      });
    default:
      // Empty optional settings take the schema's default.
      return text === '' && f.optional ? undefined : raw;
  }
}

/** The request body: empty secrets are left out (kept on the server when editing). */
export function toChannelInput(v: ChannelValues): ChannelCreateInput {
  const config: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const f of channelKindSpecs[v.kind].fields) {
    const raw = v.fields[fieldKey(f)] ?? '';
    if (f.part === 'secrets') {
      if (typeof raw === 'string' && raw !== '') secrets[f.key] = raw;
      continue;
    }
    const value = readField(f, raw);
    if (value !== undefined) config[f.key] = value;
  }
  return {
    kind: v.kind,
    name: v.name,
    isDefault: v.isDefault,
    enabled: v.enabled,
    template: { title: v.templateTitle, body: v.templateBody },
    config,
    secrets,
    fallbackChannelId: v.fallbackChannelId === '' ? null : Number(v.fallbackChannelId),
    failThreshold: v.failThreshold.trim() === '' ? 3 : Number(v.failThreshold),
    quietHours: {
      windows: v.quietWindows,
      rerouteChannelId: v.quietRerouteChannelId === '' ? null : Number(v.quietRerouteChannelId),
    },
  };
}

export const kindOptions = channelKinds.map((k) => ({
  value: k,
  label: channelKindSpecs[k].label,
}));
