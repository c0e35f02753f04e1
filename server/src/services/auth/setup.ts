import type { SetupInput } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { safeEqual } from '../../lib/crypto.js';
import { forbidden, validationFailed } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { startSession, type StartedSession } from './sessions.js';
import type { UserRecord } from '../../db/repositories/users.js';

// Per database: once an account exists, setup never comes back, so stop asking.
const setUp = new WeakSet<object>();

/** True until the first account exists. */
export async function setupRequired(deps: ServiceDeps): Promise<boolean> {
  if (setUp.has(deps.repos.users)) return false;
  if ((await deps.repos.users.count()) === 0) return true;
  setUp.add(deps.repos.users);
  return false;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Whoever reaches a fresh instance first could claim it; from the machine itself that is the
 * operator, from anywhere else they must show the token the server printed at start-up.
 */
export const setupTokenRequired = (ctx: RequestContext): boolean => !LOOPBACK.test(ctx.ip ?? '');

/** Creates the owner on first run and signs them in. A second attempt is forbidden. */
export async function setupOwner(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: SetupInput,
): Promise<{ user: UserRecord; session: StartedSession }> {
  if (setupTokenRequired(ctx) && !safeEqual(input.setupToken ?? '', deps.setupToken)) {
    throw validationFailed([
      {
        path: 'setupToken',
        message: 'Enter the setup token printed in the server log when Pagewatch started',
        code: 'wrong_setup_token',
      },
    ]);
  }
  const passwordHash = await hashPassword(input.password);
  const user = await deps.repos.users.insertFirst(
    { email: input.email, name: input.name, passwordHash },
    deps.clock.now(),
  );
  if (!user) throw forbidden('Pagewatch is already set up; sign in instead');
  await audit(
    deps,
    {
      ...ctx,
      actor: { type: 'user', id: user.id, role: user.role, label: user.email, sessionHash: '' },
    },
    'auth.setup',
    { type: 'user', id: user.id },
    `Created the owner account ${user.email}`,
  );
  return { user, session: await startSession(deps, user, ctx) };
}
