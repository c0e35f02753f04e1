import type { ChannelEntry, MonitorEntry } from '@pagewatch/contract';
import type { ChannelRecord } from '../../db/repositories/notification-channels.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { SecretBox } from '../../lib/crypto.js';
import { channelEntryOf, monitorEntryOf } from '../../config-as-code/from-resources.js';
import { getAt, setAt } from '../../config-as-code/paths.js';
import { secretSlots } from '../../config-as-code/secrets.js';
import { openSecrets, secretNames } from '../notification-channels/secrets.js';

/** JSON with object keys sorted and empty secrets dropped: equal text, equal definition. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
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
function sameEntry(
  kind: 'monitors' | 'channels',
  desired: Record<string, unknown>,
  stored: Record<string, unknown>,
): boolean {
  const want = structuredClone(desired);
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
  }
  return canonical(want) === canonical(stored);
}

export function sameMonitor(
  m: MonitorRecord,
  desired: MonitorEntry,
  channelKeys: readonly string[],
  box: SecretBox,
): boolean {
  const { headers, credential } = monitorSecrets(m, box);
  const stored = monitorEntryOf(m, desired.key, channelKeys, (slot) =>
    slot.secretIndex === undefined ? credential : headers[slot.secretIndex],
  );
  return sameEntry('monitors', desired, stored);
}

export function sameChannel(c: ChannelRecord, desired: ChannelEntry, box: SecretBox): boolean {
  const secrets = openSecrets(c, box);
  const resource = { ...c, secretsSet: secretNames(secrets) };
  const stored = channelEntryOf(resource, desired.key, (slot) => {
    const value = secrets[String(slot.path[1])];
    return typeof value === 'string' ? value : undefined;
  });
  return sameEntry('channels', desired, stored);
}
