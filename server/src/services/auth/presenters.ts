import type { Me, User } from '@pagewatch/contract';
import type { UserRecord } from '../../db/repositories/users.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What a person may see of an account: never hashes or secrets. */
export function presentMe(u: UserRecord): Me {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    totpEnabled: u.totpEnabled,
    createdAt: new Date(u.createdAt).toISOString(),
    lastLoginAt: iso(u.lastLoginAt),
  };
}

export const presentUser = (u: UserRecord): User => ({ ...presentMe(u), disabled: u.disabled });
