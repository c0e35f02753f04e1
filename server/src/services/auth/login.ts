import type { LoginInput } from '@pagewatch/contract';
import { userContext, type RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto.js';
import { unauthenticated } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import { assertPasswordAllowed } from '../oidc/policy.js';
import type { ServiceDeps } from '../deps.js';
import { startSession, type StartedSession } from './sessions.js';
import { assertNotThrottled, recordFailure, subjectsFor, typedEmailKey } from './throttle.js';
import { recoveryHash, totpStep } from './totp.js';

const CHALLENGE_MS = 5 * 60_000;
const CHALLENGE_ATTEMPTS = 5;
// Same words whatever failed, so the answer does not reveal whether an email exists.
const WRONG = 'Email or password is incorrect';

export type LoginOutcome =
  | { status: 'signed_in'; user: UserRecord; session: StartedSession }
  | { status: 'totp_required'; challenge: string; methods: ('totp' | 'passkey')[] };

export async function login(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: LoginInput,
): Promise<LoginOutcome> {
  const subjects = subjectsFor(deps, input.email, ctx.ip);
  await assertNotThrottled(deps, subjects);
  const user = await deps.repos.users.findByEmail(input.email);
  const ok = await verifyPassword(
    user && !user.disabled ? user.passwordHash : null,
    input.password,
  );
  if (!user || !ok) {
    await recordFailure(deps, subjects);
    // An unknown "email" may be a password typed into the wrong box: only a keyed hash of it
    // is kept, enough to see the same text tried again.
    await audit(
      deps,
      ctx,
      'auth.login_failed',
      user ? { type: 'user', id: user.id } : null,
      user
        ? `Failed sign-in for ${user.email}`
        : `Failed sign-in for an unknown account (typed text ref ${typedEmailKey(deps, input.email).slice(0, 10)})`,
    );
    throw unauthenticated(WRONG);
  }
  await assertPasswordAllowed(deps, user);
  // A passkey serves as the second factor as well as a TOTP app (ADR 50).
  const methods: ('totp' | 'passkey')[] = [
    ...(user.totpEnabled ? (['totp'] as const) : []),
    ...((await deps.repos.passkeys.countForUser(user.id)) > 0 ? (['passkey'] as const) : []),
  ];
  if (methods.length > 0) {
    const challenge = randomToken();
    await deps.repos.sessions.insertChallenge(
      sha256(challenge),
      user.id,
      deps.clock.now() + CHALLENGE_MS,
    );
    return { status: 'totp_required', challenge, methods };
  }
  await deps.repos.loginFailures.clear(subjects[0]!);
  await audit(
    deps,
    userContext(ctx, user),
    'auth.login',
    { type: 'user', id: user.id },
    `Signed in as ${user.email}`,
  );
  return { status: 'signed_in', user, session: await startSession(deps, user, ctx) };
}

/** Second step: a TOTP code or a recovery code (spent on use) for a fresh password challenge. */
export async function loginTotp(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: { challenge: string; code: string },
): Promise<{ user: UserRecord; session: StartedSession }> {
  const idHash = sha256(input.challenge);
  const c = await deps.repos.sessions.useChallenge(idHash);
  const now = deps.clock.now();
  if (!c || c.expiresAt <= now || c.attempts > CHALLENGE_ATTEMPTS) {
    if (c) await deps.repos.sessions.removeChallenge(idHash);
    throw unauthenticated('This sign-in has expired; enter your password again');
  }
  const user = await deps.repos.users.findById(c.userId);
  // Recovery codes also stand in for a passkey, so an account with only passkeys gets here too.
  if (!user || user.disabled || (!user.totpEnabled && user.recoveryCodeHashes.length === 0))
    throw unauthenticated(WRONG);
  // Challenges fetched before any failure would otherwise each grant fresh guesses at the code.
  await assertNotThrottled(deps, subjectsFor(deps, user.email, ctx.ip));
  const secret = user.totpEnabled && user.totpSecret ? deps.secrets.open(user.totpSecret) : null;
  const step = secret ? totpStep(secret, input.code.trim(), now, user.totpLastStep) : null;
  let valid = step !== null;
  if (valid) await deps.repos.users.update(user.id, { totpLastStep: step }, now);
  if (!valid) {
    const hash = recoveryHash(input.code);
    const left = user.recoveryCodeHashes.filter((h) => !safeEqual(h, hash));
    const spent =
      left.length < user.recoveryCodeHashes.length &&
      (await deps.repos.users.spendRecoveryCode(user.id, user.recoveryCodeHashes, left, now));
    if (spent) {
      valid = true;
      await audit(
        deps,
        ctx,
        'auth.recovery_code_used',
        { type: 'user', id: user.id },
        `Used a recovery code; ${left.length} left`,
      );
    }
  }
  if (!valid) {
    await recordFailure(deps, subjectsFor(deps, user.email, ctx.ip));
    await audit(
      deps,
      ctx,
      'auth.login_failed',
      { type: 'user', id: user.id },
      `Wrong two-factor code for ${user.email}`,
    );
    throw unauthenticated('That code is not valid; check your app and try again');
  }
  await deps.repos.sessions.removeChallenge(idHash);
  await audit(
    deps,
    userContext(ctx, user),
    'auth.login',
    { type: 'user', id: user.id },
    `Signed in as ${user.email} with two-factor`,
  );
  return { user, session: await startSession(deps, user, ctx) };
}
