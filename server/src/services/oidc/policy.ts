import { SignInPolicy } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { forbidden, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

// Stored beside the settings groups but outside them: only the owner may change it (ADR 48).
const KEY = 'sign_in_policy';
const DEFAULT: SignInPolicy = { passwordSignIn: 'everyone' };

export async function readSignInPolicy(deps: Pick<ServiceDeps, 'repos'>): Promise<SignInPolicy> {
  const stored = (await deps.repos.settings.all()).get(KEY);
  const parsed = SignInPolicy.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT;
}

/** Turning password sign-in off for all but the owner needs an enabled provider to sign in with. */
export async function writeSignInPolicy(
  deps: ServiceDeps,
  ctx: RequestContext,
  policy: SignInPolicy,
): Promise<SignInPolicy> {
  if (policy.passwordSignIn === 'owner_only') {
    const enabled = (await deps.repos.oidc.list()).some((p) => p.enabled);
    if (!enabled)
      throw validationFailed([
        {
          path: 'passwordSignIn',
          code: 'no_provider',
          message: 'Add and enable a sign-in provider first, or nobody but the owner could sign in',
        },
      ]);
  }
  const before = await readSignInPolicy(deps);
  await deps.repos.settings.put({ [KEY]: policy }, deps.clock.now());
  if (before.passwordSignIn !== policy.passwordSignIn)
    await audit(
      deps,
      ctx,
      'settings.updated',
      { type: 'settings', id: KEY },
      `Settings: password sign-in ${before.passwordSignIn} → ${policy.passwordSignIn}`,
    );
  return policy;
}

/**
 * Refuses a password sign-in the policy turned off. Asked only after the password was right,
 * so the answer tells nothing to someone who does not know it.
 */
export async function assertPasswordAllowed(deps: ServiceDeps, user: UserRecord): Promise<void> {
  if (user.role === 'owner') return;
  const policy = await readSignInPolicy(deps);
  if (policy.passwordSignIn === 'owner_only')
    throw forbidden('Password sign-in is turned off here; use your organisation’s sign-in button');
}
