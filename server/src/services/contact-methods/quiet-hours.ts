import type { UserQuietHours } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { selfOf } from './manage.js';

/** The signed-in person's quiet hours (ADR 60): warnings to them wait, critical ones do not. */
export async function myQuietHours(
  deps: ServiceDeps,
  ctx: RequestContext,
): Promise<UserQuietHours> {
  return { windows: await deps.repos.contactMethods.quietHours(selfOf(ctx)) };
}

export async function setMyQuietHours(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: UserQuietHours,
): Promise<UserQuietHours> {
  const userId = selfOf(ctx);
  await deps.repos.contactMethods.setQuietHours(userId, input.windows, deps.clock.now());
  const n = input.windows.length;
  await audit(
    deps,
    ctx,
    'user.quiet_hours_updated',
    { type: 'user', id: userId },
    n === 0 ? 'Cleared their quiet hours' : `Set ${n} quiet-hours window${n === 1 ? '' : 's'}`,
  );
  return myQuietHours(deps, ctx);
}
