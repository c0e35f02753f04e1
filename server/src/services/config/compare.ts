import type { ChannelEntry } from '@pagewatch/contract';
import type { ChannelRecord } from '../../db/repositories/notification-channels.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { SecretBox } from '../../lib/crypto.js';
import { channelEntryOf } from '../../config-as-code/from-resources.js';
import { getAt, setAt } from '../../config-as-code/paths.js';
import { secretSlots } from '../../config-as-code/secrets.js';
import { openSecrets, secretNames } from '../notification-channels/secrets.js';

/** An integer key, which JavaScript objects keep first and in numeric order. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const isIndex = (key: string) => ARRAY_INDEX.test(key) && Number(key) < 4_294_967_295;

function write(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return write((toJSON as () => unknown).call(value));
    if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? 'null').join(',')}]`;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : 1));
    // The text stored as drift baselines came from a sorted object, which put integer keys
    // first in numeric order: the same order here keeps those baselines equal.
    const ordered = keys.some(isIndex)
      ? [
          ...keys.filter(isIndex).sort((a, b) => Number(a) - Number(b)),
          ...keys.filter((k) => !isIndex(k)),
        ]
      : keys;
    let out = '';
    for (const key of ordered) {
      const text = write(record[key]);
      if (text === undefined) continue;
      out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${text}`;
    }
    return `{${out}}`;
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
    return undefined;
  return JSON.stringify(value);
}

/**
 * JSON with object keys sorted: equal text, equal definition. Written out by hand: the
 * replacer that sorted a copy of every object was most of a 10,000-monitor plan's time.
 */
export function canonical(value: unknown): string {
  return write(value) as string;
}

/** A monitor's stored secrets, opened: the credential and the secret headers in order. */
export function monitorSecrets(m: MonitorRecord, box: SecretBox) {
  const legacy = (m.settings as { basicAuth?: { password?: string } | null }).basicAuth?.password;
  let headers: string[] = [];
  try {
    if (m.headerSecrets != null) headers = JSON.parse(box.open(m.headerSecrets)) as string[];
  } catch {
    // Sealed with another key: nothing known, so the document's values count as a change.
  }
  let credential: string | undefined;
  try {
    credential = m.secret != null ? box.open(m.secret) : legacy || undefined;
  } catch {
    credential = undefined;
  }
  return { headers, credential };
}

/**
 * The desired entry as the stored one would read: secrets it leaves out keep the stored ones,
 * channels left out keep the links, and the order of key lists does not count.
 */
export function sameEntry(
  kind: 'monitors' | 'channels',
  desired: Record<string, unknown>,
  given: Record<string, unknown>,
): boolean {
  const want = structuredClone(desired);
  // The stored entry may be shared (the state's live entries): changed on a copy only.
  const stored = structuredClone(given);
  for (const slot of secretSlots(kind, want)) {
    const value = getAt(want, slot.path);
    if (value === undefined || value === '') setAt(want, slot.path, getAt(stored, slot.path));
  }
  for (const slot of secretSlots(kind, stored)) {
    if (getAt(stored, slot.path) === '') setAt(stored, slot.path, undefined);
  }
  if (kind === 'monitors') {
    want.channels =
      want.channels === undefined ? stored.channels : [...(want.channels as string[])].sort();
    // Written as an export writes them: the default placement is no fields at all (ADR 70).
    const locations = want.locations === undefined ? ['local'] : [...(want.locations as string[])];
    want.locations = canonical(locations) === '["local"]' ? undefined : locations.sort();
    if (want.quorum === null) want.quorum = undefined;
  }
  return canonical(want) === canonical(stored);
}

export function sameChannel(
  c: ChannelRecord,
  desired: ChannelEntry,
  box: SecretBox,
  channelKeys: ReadonlyMap<number, string>,
): boolean {
  const secrets = openSecrets(c, box);
  const resource = { ...c, secretsSet: secretNames(secrets) };
  const stored = channelEntryOf(resource, desired.key, channelKeys, (slot) => {
    const value = secrets[String(slot.path[1])];
    return typeof value === 'string' ? value : undefined;
  });
  return sameEntry('channels', desired, stored);
}
