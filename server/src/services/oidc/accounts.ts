import type { RequestContext } from '../../domain/actor.js';
import { userContext } from '../../domain/actor.js';
import {
  domainAllowed,
  mappedRole,
  readPerson,
  type OidcPerson,
} from '../../domain/oidc/claims.js';
import type { OidcProviderRecord } from '../../db/repositories/oidc.js';
import type { UserRecord } from '../../db/repositories/users.js';
import type { Role } from '@pagewatch/contract';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { endUserSessions } from '../auth/sessions.js';
import { OidcFailure } from './errors.js';

/** Not an argon2 hash: no password ever matches it, until the person sets one by a reset link. */
export const NO_PASSWORD = '!oidc-only';

/**
 * The account a provider's person signs in as: the one linked to their subject, else the one
 * with their verified email (linked now), else a new one when the provider creates accounts
 * or an invitation waits for the address. The mapped role is applied at every sign-in.
 */
export async function accountFor(
  deps: ServiceDeps,
  ctx: RequestContext,
  provider: OidcProviderRecord,
  claims: Record<string, unknown>,
): Promise<UserRecord> {
  const person = readPerson(claims, provider);
  if ('refused' in person) throw new OidcFailure(person.refused);
  if (!domainAllowed(person.email, provider.allowedDomains))
    throw new OidcFailure(
      'oidc_domain_not_allowed',
      `${person.email} is outside the allowed domains`,
    );
  const now = deps.clock.now();
  const linkedId = await deps.repos.oidc.findIdentity(provider.id, person.subject);
  let user = linkedId === null ? null : await deps.repos.users.findById(linkedId);
  if (!user) {
    // Linking by email hands over an existing account: only an address the provider verified.
    if (!person.emailVerified)
      throw new OidcFailure(
        'oidc_email_unverified',
        `${person.email} is not verified by ${provider.name}`,
      );
    user =
      (await deps.repos.users.findByEmail(person.email)) ??
      (await createFor(deps, ctx, provider, person));
    await deps.repos.oidc.link(provider.id, person.subject, user.id, now);
  }
  if (user.disabled) throw new OidcFailure('oidc_account_disabled', `${user.email} is disabled`);
  return applyRole(deps, ctx, provider, person, user);
}

async function createFor(
  deps: ServiceDeps,
  ctx: RequestContext,
  provider: OidcProviderRecord,
  person: OidcPerson,
): Promise<UserRecord> {
  const now = deps.clock.now();
  let role: Role =
    mappedRole(person.groups, provider.roleMappings, provider.defaultRole) ?? provider.defaultRole;
  let via = `created on first sign-in through ${provider.name}`;
  if (provider.signUp === 'invited') {
    const invitation = (await deps.repos.accountTokens.openInvitations()).find(
      (r) => r.email === person.email && r.expiresAt > now,
    );
    if (!invitation || !(await deps.repos.accountTokens.spend(invitation.id, now)))
      throw new OidcFailure('oidc_not_invited', `${person.email} has no account and no invitation`);
    // An invitation's role stands unless a mapping says otherwise at this and later sign-ins.
    role = provider.roleMappings.length > 0 ? role : (invitation.role as Role);
    via = `accepted the invitation of ${invitation.createdByLabel} through ${provider.name}`;
  }
  const user = await deps.repos.users.insertUnlessTaken(
    { email: person.email, name: person.name, role, passwordHash: NO_PASSWORD },
    now,
  );
  // Taken meanwhile (two callbacks at once): the other one made it.
  const made = user ?? (await deps.repos.users.findByEmail(person.email));
  if (!made) throw new OidcFailure('oidc_failed', 'The account could not be created');
  if (user)
    await audit(
      deps,
      userContext(ctx, user),
      'user.created',
      { type: 'user', id: user.id },
      `${user.email} ${via} as ${user.role}`,
    );
  return made;
}

/** Re-applies the mapping; an owner keeps ownership, which is only ever handed over. */
async function applyRole(
  deps: ServiceDeps,
  ctx: RequestContext,
  provider: OidcProviderRecord,
  person: OidcPerson,
  user: UserRecord,
): Promise<UserRecord> {
  const role = mappedRole(person.groups, provider.roleMappings, provider.defaultRole);
  if (role === null || user.role === 'owner' || role === user.role) return user;
  const updated = await deps.repos.users.update(user.id, { role }, deps.clock.now());
  if (!updated) return user;
  // Sessions holding the old role end, as after any role change.
  await endUserSessions(deps, user.id);
  await audit(
    deps,
    userContext(ctx, updated),
    'user.updated',
    { type: 'user', id: user.id },
    `Role ${user.role} → ${role} by the group mapping of ${provider.name}`,
  );
  return updated;
}
