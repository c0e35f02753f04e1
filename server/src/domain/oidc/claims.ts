import {
  roleRank,
  type OidcErrorCode,
  type OidcRole,
  type OidcRoleMapping,
} from '@pagewatch/contract';

/** What a provider's claims say about a person, read with the provider's claim names. */
export interface OidcPerson {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  groups: string[];
}

export interface ClaimNames {
  emailClaim: string;
  nameClaim: string;
  groupsClaim: string | null;
}

/** A claim by name; a dotted name reaches into nested objects (`realm_access.roles`). */
function claim(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  let at: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** Reads the person out of ID token and userinfo claims, or the code that refuses them. */
export function readPerson(
  claims: Record<string, unknown>,
  names: ClaimNames,
): OidcPerson | { refused: OidcErrorCode } {
  const email = claim(claims, names.emailClaim);
  if (typeof email !== 'string' || !email.includes('@')) return { refused: 'oidc_email_missing' };
  const rawName = claim(claims, names.nameClaim);
  const groupsRaw = names.groupsClaim ? claim(claims, names.groupsClaim) : undefined;
  const groups = Array.isArray(groupsRaw)
    ? groupsRaw.filter((g): g is string => typeof g === 'string')
    : typeof groupsRaw === 'string'
      ? [groupsRaw]
      : [];
  const verified = claims.email_verified;
  const lowered = email.trim().toLowerCase();
  return {
    subject: String(claims.sub),
    email: lowered,
    // Some providers send the string "true"; anything else is not a verification.
    emailVerified: verified === true || verified === 'true',
    name:
      typeof rawName === 'string' && rawName.trim() !== ''
        ? rawName.trim().slice(0, 100)
        : lowered.slice(0, lowered.indexOf('@')),
    groups,
  };
}

/** Whether the address's domain is one of those allowed (none listed: any). */
export function domainAllowed(email: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return allowed.includes(domain);
}

/**
 * The role the mappings give: the highest role among matching groups, else the default.
 * Null when no mapping is configured: an existing account then keeps the role it has.
 */
export function mappedRole(
  groups: readonly string[],
  mappings: readonly OidcRoleMapping[],
  defaultRole: OidcRole,
): OidcRole | null {
  if (mappings.length === 0) return null;
  let best: OidcRole = defaultRole;
  let matched = false;
  for (const m of mappings) {
    if (!groups.includes(m.value)) continue;
    if (!matched || roleRank[m.role] > roleRank[best]) best = m.role;
    matched = true;
  }
  return best;
}
