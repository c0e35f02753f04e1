import type { Role, User } from '@pagewatch/contract';
import { rolesUpTo } from '../auth/roles';

export interface UserControls {
  /** Why nothing can be changed on this row, or null. */
  locked: string | null;
  canChangeRole: boolean;
  canDisable: boolean;
  canResetPassword: boolean;
  /** Why role and disable are off while the password can still be reset, or null. */
  limited: string | null;
  roleOptions: Role[];
}

/**
 * What the signed-in person may do to one account, mirroring the server's rules (SPEC §6):
 * roles up to your own, only owners touch owners, the last active owner stays one, and your
 * own account is changed under Account, not here.
 */
export function userControls(
  me: { id: number; role: Role },
  user: Pick<User, 'id' | 'role' | 'disabled'>,
  activeOwners: number,
): UserControls {
  const none = {
    canChangeRole: false,
    canDisable: false,
    canResetPassword: false,
    limited: null,
    roleOptions: [],
  };
  if (user.id === me.id) {
    return { ...none, locked: 'This is you: change your password under Account' };
  }
  if (me.role !== 'owner' && user.role === 'owner') {
    return { ...none, locked: 'Only an owner can change an owner' };
  }
  if (me.role !== 'owner' && me.role !== 'admin') {
    return { ...none, locked: 'Managing people needs the admin role' };
  }
  const lastOwner = user.role === 'owner' && !user.disabled && activeOwners <= 1;
  return {
    locked: null,
    canChangeRole: !lastOwner,
    canDisable: !lastOwner,
    canResetPassword: true,
    limited: lastOwner ? 'The last owner must stay an active owner' : null,
    roleOptions: rolesUpTo(me.role),
  };
}

export const countActiveOwners = (users: readonly Pick<User, 'role' | 'disabled'>[]): number =>
  users.filter((u) => u.role === 'owner' && !u.disabled).length;
