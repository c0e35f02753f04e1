import type { RequestContext } from '../../domain/actor.js';
import { forbidden, validationFailed } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { endUserSessions } from './sessions.js';

/** Changes the caller's password and signs out their other sessions. */
export async function changePassword(
  deps: ServiceDeps,
  ctx: RequestContext,
  current: string,
  next: string,
): Promise<void> {
  if (ctx.actor.type !== 'user') throw forbidden('Only a signed-in person can change a password');
  const user = await deps.repos.users.findById(ctx.actor.id);
  if (!user || !(await verifyPassword(user.passwordHash, current))) {
    throw validationFailed([
      { path: 'current', message: 'This is not your current password', code: 'wrong_password' },
    ]);
  }
  await deps.repos.users.update(
    user.id,
    { passwordHash: await hashPassword(next) },
    deps.clock.now(),
  );
  await endUserSessions(deps, user.id, ctx.actor.sessionHash);
  await audit(
    deps,
    ctx,
    'auth.password_changed',
    { type: 'user', id: user.id },
    'Changed their password; other sessions signed out',
  );
}
