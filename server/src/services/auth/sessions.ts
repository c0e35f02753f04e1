import { createHmac } from 'node:crypto';
import type { Actor, RequestContext } from '../../domain/actor.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import type { UserRecord } from '../../db/repositories/users.js';
import type { ServiceDeps } from '../deps.js';
import { hasSecondFactor } from './second-factor-policy.js';

export const SESSION_COOKIE = 'pw_session';
/** SPEC §9: 30 days absolute, 7 days idle. */
export const SESSION_ABSOLUTE_MS = 30 * 86_400_000;
export const SESSION_IDLE_MS = 7 * 86_400_000;
// Writing last-seen on every request would turn reads into writes.
const TOUCH_EVERY_MS = 60_000;

export interface StartedSession {
  token: string;
  csrfToken: string;
  expiresAt: number;
}

export function csrfTokenFor(deps: Pick<ServiceDeps, 'instanceKey'>, sessionHash: string): string {
  return createHmac('sha256', deps.instanceKey).update(`csrf:${sessionHash}`).digest('base64url');
}

/** A new session with a fresh random id: called on every sign-in, so ids are never reused. */
export async function startSession(
  deps: ServiceDeps,
  user: UserRecord,
  ctx: RequestContext,
): Promise<StartedSession> {
  const token = randomToken();
  const idHash = sha256(token);
  const now = deps.clock.now();
  const expiresAt = now + SESSION_ABSOLUTE_MS;
  await deps.repos.sessions.insert({
    idHash,
    userId: user.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  await deps.repos.users.update(user.id, { lastLoginAt: now }, now);
  return { token, csrfToken: csrfTokenFor(deps, idHash), expiresAt };
}

/** What a credential stands for, and when it lapses unless used again (idle expiry moves). */
export interface HeldCredential {
  actor: Actor;
  validUntil: number;
}

async function readSession(deps: ServiceDeps, idHash: string, now: number) {
  const session = await deps.repos.sessions.find(idHash);
  if (!session) return null;
  const validUntil = Math.min(session.expiresAt, session.lastSeenAt + SESSION_IDLE_MS);
  if (validUntil <= now) return 'expired' as const;
  const user = await deps.repos.users.findById(session.userId);
  if (!user || user.disabled) return null;
  const actor: Actor = {
    type: 'user',
    id: user.id,
    role: user.role,
    label: user.email,
    sessionHash: idHash,
    // A session begun through OIDC counts as two-factor: the provider owns the factors (ADR 49).
    secondFactor: (await hasSecondFactor(deps, user)) || (await deps.repos.oidc.hasSession(idHash)),
  };
  return { actor, validUntil, session };
}

/** The signed-in user behind a session cookie, or null when it is unknown, expired, idle or disabled. */
export async function resolveSession(deps: ServiceDeps, token: string): Promise<Actor | null> {
  const idHash = sha256(token);
  const now = deps.clock.now();
  const cached = deps.authCache.get(`s:${idHash}`, now);
  if (cached) return cached;
  const found = await readSession(deps, idHash, now);
  if (found === 'expired') await deps.repos.sessions.remove(idHash);
  if (!found || found === 'expired') return null;
  const { actor, session } = found;
  if (now - session.lastSeenAt > TOUCH_EVERY_MS) await deps.repos.sessions.touch(idHash, now);
  deps.authCache.set(`s:${idHash}`, actor, now, Math.min(session.expiresAt, now + SESSION_IDLE_MS));
  return actor;
}

/**
 * A session as it stands in the database, read without counting as a use (no last-seen
 * touch, no cache): an open event stream must not keep an idle session alive.
 */
export async function inspectSession(
  deps: ServiceDeps,
  token: string,
): Promise<HeldCredential | null> {
  const found = await readSession(deps, sha256(token), deps.clock.now());
  return found && found !== 'expired' ? { actor: found.actor, validUntil: found.validUntil } : null;
}

export async function endSession(deps: ServiceDeps, idHash: string, userId: number): Promise<void> {
  deps.authCache.delete(`s:${idHash}`);
  await deps.repos.sessions.remove(idHash);
  deps.revocations.publish({ userId });
}

/** Signs a person out everywhere (but the session given), e.g. after a password or role change. */
export async function endUserSessions(
  deps: ServiceDeps,
  userId: number,
  except?: string,
): Promise<void> {
  deps.authCache.evictUser(userId);
  await deps.repos.sessions.removeForUser(userId, except);
  // Also their API keys' streams re-check: a role change or a disable lowers or stops the keys.
  deps.revocations.publish({ userId });
}

/**
 * Replaces the caller's session with a fresh id after a privilege change (password, two-factor),
 * so a session id observed before the change is worth nothing after it.
 */
export async function rotateSession(
  deps: ServiceDeps,
  ctx: RequestContext,
): Promise<StartedSession | null> {
  if (ctx.actor.type !== 'user') return null;
  const user = await deps.repos.users.findById(ctx.actor.id);
  if (!user) return null;
  await endSession(deps, ctx.actor.sessionHash, ctx.actor.id);
  return startSession(deps, user, ctx);
}
