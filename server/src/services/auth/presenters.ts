import type { Me, User } from '@pagewatch/contract';
import type { UserRecord } from '../../db/repositories/users.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * What a person may see of an account: never hashes or secrets. `secondFactorRequired`: the
 * policy is sending them to enrol (ADR 51); only their own session answers say so.
 */
export function presentMe(u: UserRecord, secondFactorRequired = false): Me {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    totpEnabled: u.totpEnabled,
    secondFactorRequired,
    createdAt: new Date(u.createdAt).toISOString(),
    lastLoginAt: iso(u.lastLoginAt),
  };
}

export const presentUser = (u: UserRecord): User => ({ ...presentMe(u), disabled: u.disabled });
