import { roleRank, type Role } from '@pagewatch/contract';

/** Who is asking: the subject of every permission check and audit line. */
export type Actor =
  | {
      type: 'user';
      id: number;
      role: Role;
      label: string;
      sessionHash: string;
      /** Whether the person has a TOTP app or a passkey (the second-factor policy, ADR 51). */
      secondFactor?: boolean;
    }
  | { type: 'api_key'; id: number; role: Role; label: string; userId: number }
  | { type: 'system'; label: string }
  | { type: 'anonymous' };

export interface RequestContext {
  actor: Actor;
  ip: string | null;
  userAgent: string | null;
}

export const systemContext: RequestContext = {
  actor: { type: 'system', label: 'system' },
  ip: null,
  userAgent: null,
};

export const anonymousContext = (ip: string | null, userAgent: string | null): RequestContext => ({
  actor: { type: 'anonymous' },
  ip,
  userAgent,
});

/** The request as seen once a person is known (sign-in, setup), for audit lines in their name. */
export const userContext = (
  ctx: RequestContext,
  user: { id: number; role: Role; email: string },
): RequestContext => ({
  ...ctx,
  actor: { type: 'user', id: user.id, role: user.role, label: user.email, sessionHash: '' },
});

export function actorRole(actor: Actor): Role | null {
  return actor.type === 'user' || actor.type === 'api_key'
    ? actor.role
    : actor.type === 'system'
      ? 'owner'
      : null;
}

/** The id of the person behind the actor (an API key acts for its creator). */
export function actorUserId(actor: Actor): number | null {
  return actor.type === 'user' ? actor.id : actor.type === 'api_key' ? actor.userId : null;
}

/** A role can grant or manage only roles up to its own; owners are managed by owners alone. */
export function canAssign(actor: Role, target: Role): boolean {
  return (
    actor === 'owner' ||
    (roleRank[actor] >= roleRank.admin && target !== 'owner' && roleRank[target] <= roleRank[actor])
  );
}

export const lowerRole = (a: Role, b: Role): Role => (roleRank[a] <= roleRank[b] ? a : b);
