import {
  channelSchemas,
  envReference,
  envReferenceName,
  MonitorType,
  type ChannelKind,
  type ConfigDocument,
} from '@pagewatch/contract';
import { hasPassword } from '../domain/monitor-types.js';
import { getAt, setAt, type ConfigProblem, type DocPath } from './paths.js';

/** A secret field of one entry: where it is, and the variable export names for it. */
export interface SecretSlot {
  path: DocPath;
  envName: string;
  /** For a secret request header: its place among the secret headers (their sealed order). */
  secretIndex?: number;
}

type SecretKind = 'monitors' | 'channels';

const monitorTypes: ReadonlySet<unknown> = new Set(MonitorType.options);
const isMonitorType = (type: unknown): type is MonitorType => monitorTypes.has(type);
type Loose = Record<string, unknown>;

const upper = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();

function monitorSlots(entry: Loose, prefix: string): SecretSlot[] {
  const slots: SecretSlot[] = [];
  const auth = entry.auth as Loose | undefined;
  if (entry.type === 'http' && auth?.kind === 'basic') {
    slots.push({ path: ['auth', 'password'], envName: `${prefix}_PASSWORD` });
  }
  if (entry.type === 'http' && auth?.kind === 'bearer') {
    slots.push({ path: ['auth', 'token'], envName: `${prefix}_TOKEN` });
  }
  if (entry.type === 'browser' && entry.basicAuth) {
    slots.push({ path: ['basicAuth', 'password'], envName: `${prefix}_PASSWORD` });
  }
  // Database and broker types: a write-only `password` beside the user name (a type trait).
  // A plain lookup, not a schema parse: this runs for every entry of every plan.
  if (isMonitorType(entry.type) && hasPassword(entry.type)) {
    slots.push({ path: ['password'], envName: `${prefix}_PASSWORD` });
  }
  const headers = Array.isArray(entry.headers) ? (entry.headers as Loose[]) : [];
  const seen = new Map<string, number>();
  let secretIndex = 0;
  headers.forEach((h, i) => {
    if (h.secret === false) return;
    const name = upper(String(h.name));
    const nth = (seen.get(name) ?? 0) + 1;
    seen.set(name, nth);
    const envName = `${prefix}_HEADER_${name}${nth > 1 ? `_${nth}` : ''}`;
    slots.push({ path: ['headers', i, 'value'], envName, secretIndex: secretIndex++ });
  });
  return slots;
}

function channelSlots(entry: Loose, prefix: string): SecretSlot[] {
  const schema = channelSchemas[entry.kind as ChannelKind] as
    { secrets: { shape: Record<string, unknown> } } | undefined;
  if (!schema) return [];
  return Object.keys(schema.secrets.shape).map((field) => ({
    path: ['secrets', field],
    envName: `${prefix}_${upper(field)}`,
  }));
}

/** The secret fields an entry has, by its type and settings, whether set or not. */
export function secretSlots(kind: SecretKind, entry: Loose): SecretSlot[] {
  const prefix = `${kind === 'monitors' ? 'MONITOR' : 'CHANNEL'}_${upper(String(entry.key))}`;
  return kind === 'monitors' ? monitorSlots(entry, prefix) : channelSlots(entry, prefix);
}

/** Every secret field of a document that holds a value, with its path from the root. */
function filledSlots(document: ConfigDocument): { path: DocPath; value: string }[] {
  const out: { path: DocPath; value: string }[] = [];
  for (const kind of ['channels', 'monitors'] as const) {
    (document[kind] as unknown as Loose[]).forEach((entry, i) => {
      for (const slot of secretSlots(kind, entry)) {
        const value = getAt(entry, slot.path);
        if (typeof value === 'string') out.push({ path: [kind, i, ...slot.path], value });
      }
    });
  }
  return out;
}

/** Secrets written inline: allowed, but they end up in Git; a warning each. */
export function inlineSecretWarnings(document: ConfigDocument): ConfigProblem[] {
  return filledSlots(document)
    .filter((s) => s.value !== '' && envReferenceName(s.value) === null)
    .map((s) => ({
      path: s.path,
      severity: 'warning' as const,
      message: 'This secret is written inline; refer to it as ${env:NAME} instead',
    }));
}

export interface UnresolvedSecret {
  path: DocPath;
  name: string;
}

/**
 * The document with each `${env:NAME}` replaced by `env`'s value. A reference without a value
 * is left out (an update keeps the stored secret) and listed, so a create can refuse it.
 */
export function resolveSecrets(
  document: ConfigDocument,
  env: Readonly<Record<string, string>>,
): { document: ConfigDocument; unresolved: UnresolvedSecret[] } {
  const copy = structuredClone(document);
  const unresolved: UnresolvedSecret[] = [];
  for (const slot of filledSlots(copy)) {
    const name = envReferenceName(slot.value);
    if (name === null) continue;
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (value === undefined) unresolved.push({ path: slot.path, name });
    setAt(copy, slot.path, value);
  }
  return { document: copy, unresolved };
}

/** Names of every variable the document refers to (what the CLI sends from its environment). */
export function referencedVariables(document: ConfigDocument): string[] {
  const names = filledSlots(document)
    .map((s) => envReferenceName(s.value))
    .filter((n): n is string => n !== null);
  return [...new Set(names)].sort();
}

/** Writes `valueOf` into every secret slot of an entry; undefined clears it. */
export function fillSecrets(
  kind: SecretKind,
  entry: Loose,
  valueOf: (slot: SecretSlot) => string | undefined,
): void {
  for (const slot of secretSlots(kind, entry)) setAt(entry, slot.path, valueOf(slot));
}

/** A slot's export form: a reference when a secret is stored, nothing otherwise. */
export const asReference =
  (isSet: (slot: SecretSlot) => boolean) =>
  (slot: SecretSlot): string | undefined =>
    isSet(slot) ? envReference(slot.envName) : undefined;
