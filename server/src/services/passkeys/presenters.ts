import type { Passkey } from '@pagewatch/contract';
import type { PasskeyRecord } from '../../db/repositories/passkeys.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What the owner sees of a passkey: never the credential id or key. */
export const presentPasskey = (p: PasskeyRecord): Passkey => ({
  id: p.id,
  name: p.name,
  backedUp: p.backedUp,
  createdAt: new Date(p.createdAt).toISOString(),
  lastUsedAt: iso(p.lastUsedAt),
});
