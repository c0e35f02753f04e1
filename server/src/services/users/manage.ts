import type { Person, User, UserCreate, UserUpdate } from '@pagewatch/contract';
import { actorRole, canAssign, type RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import { presentUser } from '../auth/presenters.js';
import { endUserSessions } from '../auth/sessions.js';
import type { ServiceDeps } from '../deps.js';

const emailTaken = (email: string) =>
  new AppError('conflict', `${email} already has an account`, [
    { path: 'email', message: 'This email already has an account', code: 'taken' },
  ]);

function requireManager(ctx: RequestContext, target: UserRecord | null, newRole?: User['role']) {
  const role = actorRole(ctx.actor);
  if (!role) throw forbidden('Sign in to manage users');
  if (target && !canAssign(role, target.role)) throw forbidden('Only an owner can change an owner');
  if (newRole && !canAssign(role, newRole)) throw forbidden(`You cannot grant the ${newRole} role`);
}

async function target(deps: ServiceDeps, id: number): Promise<UserRecord> {
  const u = await deps.repos.users.findById(id);
  if (!u) throw notFound('User');
  return u;
}

export async function listUsers(deps: ServiceDeps): Promise<User[]> {
  return (await deps.repos.users.list()).map(presentUser);
}

/** Active accounts by name, for editors picking people (disabled ones cannot be reached). */
export async function listPeople(deps: ServiceDeps): Promise<Person[]> {
  return (await deps.repos.users.list())
    .filter((u) => !u.disabled)
    .map((u) => ({ id: u.id, name: u.name, email: u.email }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export async function createUser(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: UserCreate,
): Promise<User> {
  requireManager(ctx, null, input.role);
  if (await deps.repos.users.findByEmail(input.email)) throw emailTaken(input.email);
  const user = await deps.repos.users.insertUnlessTaken(
    {
      email: input.email,
      name: input.name,
      role: input.role,
      passwordHash: await hashPassword(input.password),
    },
    deps.clock.now(),
  );
  if (!user) throw emailTaken(input.email);
  await audit(
    deps,
    ctx,
    'user.created',
    { type: 'user', id: user.id },
    `Created ${user.email} as ${user.role}`,
  );
  return presentUser(user);
}

/** Renames, changes the role of, or disables/enables a user; the last owner stays an active owner. */
export async function updateUser(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  change: UserUpdate,
): Promise<User> {
  const before = await target(deps, id);
  requireManager(ctx, before, change.role);
  const demotesOwner =
    before.role === 'owner' &&
    ((change.role && change.role !== 'owner') || change.disabled === true);
  if (demotesOwner && !before.disabled && (await deps.repos.users.countActiveOwners()) <= 1) {
    throw conflict('This is the last owner; make someone else an owner first');
  }
  const after = demotesOwner
    ? await deps.repos.users.updateKeepingAnOwner(id, change, deps.clock.now())
    : await deps.repos.users.update(id, change, deps.clock.now());
  if (after === 'last_owner')
    throw conflict('This is the last owner; make someone else an owner first');
  if (!after) throw notFound('User');
  // A role change or a disable is a privilege change: their sessions start over.
  if ((change.role && change.role !== before.role) || change.disabled === true)
    await endUserSessions(deps, id);
  const what = [
    change.name !== undefined && change.name !== before.name ? `renamed to ${change.name}` : null,
    change.role && change.role !== before.role ? `role ${before.role} → ${change.role}` : null,
    change.disabled !== undefined && change.disabled !== before.disabled
      ? change.disabled
        ? 'disabled'
        : 'enabled'
      : null,
  ].filter(Boolean);
  await audit(
    deps,
    ctx,
    'user.updated',
    { type: 'user', id },
    `${before.email}: ${what.join(', ') || 'no change'}`,
  );
  return presentUser(after);
}

/** Sets a new password for someone else and signs them out everywhere. */
export async function resetUserPassword(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  password: string,
): Promise<void> {
  const user = await target(deps, id);
  requireManager(ctx, user);
  await deps.repos.users.update(
    id,
    { passwordHash: await hashPassword(password) },
    deps.clock.now(),
  );
  await endUserSessions(deps, id);
  await audit(
    deps,
    ctx,
    'user.password_reset',
    { type: 'user', id },
    `Reset the password of ${user.email}`,
  );
}

/**
 * Deletes an account: its sessions, keys and open links go with it, its audit lines stay and
 * keep its name (a tombstone); the last active owner cannot be deleted, nor oneself.
 */
export async function deleteUser(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const user = await target(deps, id);
  requireManager(ctx, user);
  if (ctx.actor.type === 'user' && ctx.actor.id === id)
    throw conflict('You cannot delete your own account; ask another admin or owner');
  const removed = await deps.repos.users.removeKeepingAnOwner(id, deps.clock.now());
  if (removed === 'last_owner')
    throw conflict('This is the only owner; make someone else an owner first');
  if (!removed) throw notFound('User');
  await endUserSessions(deps, id);
  await audit(
    deps,
    ctx,
    'user.deleted',
    { type: 'user', id },
    `Deleted ${user.name} <${user.email}> (${user.role}); their audit entries are kept`,
  );
}
