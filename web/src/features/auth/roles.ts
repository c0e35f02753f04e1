import type { Role } from '@pagewatch/contract';

// Mirrors roleRank in the contract, which cannot be imported here without bringing zod into
// the initial bundle; `satisfies` keeps the two in step at compile time.
const rank = { viewer: 1, editor: 2, admin: 3, owner: 4 } satisfies Record<Role, number>;

export const roleOrder: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];

/** Higher can do everything lower can (SPEC §6). */
export const atLeast = (role: Role, needed: Role): boolean => rank[role] >= rank[needed];

/** Roles someone may give to a person or an API key: up to their own. */
export const rolesUpTo = (role: Role): Role[] => roleOrder.filter((r) => atLeast(role, r));

export const roleLabel: Record<Role, string> = {
  viewer: 'Viewer',
  editor: 'Editor',
  admin: 'Admin',
  owner: 'Owner',
};

export const roleSummary: Record<Role, string> = {
  viewer: 'can see monitors, incidents and history',
  editor: 'can also create, edit and pause monitors',
  admin: 'can also manage people, API keys and settings',
  owner: 'can do everything, including managing owners',
};

/** "a viewer", "an editor", "an admin", "an owner". */
export const aRole = (role: Role): string => `${role === 'viewer' ? 'a' : 'an'} ${role}`;

/** "An editor can also create, edit and pause monitors." */
export const describeRole = (role: Role): string => {
  const text = `${aRole(role)} ${roleSummary[role]}.`;
  return text.charAt(0).toUpperCase() + text.slice(1);
};
