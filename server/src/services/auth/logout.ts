import type { RequestContext } from '../../domain/actor.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { endSession, endUserSessions } from './sessions.js';

export async function logout(deps: ServiceDeps, ctx: RequestContext): Promise<void> {
  if (ctx.actor.type !== 'user') return;
  await endSession(deps, ctx.actor.sessionHash, ctx.actor.id);
  await audit(deps, ctx, 'auth.logout', { type: 'user', id: ctx.actor.id }, 'Signed out');
}

/** "Sign out everywhere": ends every session of the caller, this one included. */
export async function logoutEverywhere(deps: ServiceDeps, ctx: RequestContext): Promise<void> {
  if (ctx.actor.type !== 'user') return;
  await endUserSessions(deps, ctx.actor.id);
  await audit(
    deps,
    ctx,
    'auth.logout_all',
    { type: 'user', id: ctx.actor.id },
    'Signed out everywhere',
  );
}
