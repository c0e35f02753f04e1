import type { WebAuthnResponse } from '@pagewatch/contract';
import {
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { userContext, type RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { sha256 } from '../../lib/crypto.js';
import { unauthenticated } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import { startSession, type StartedSession } from '../auth/sessions.js';
import { assertNotThrottled, recordFailure, subjectsFor } from '../auth/throttle.js';
import type { ServiceDeps } from '../deps.js';
import { verifyAssertion, type AssertionResult } from './assertion.js';
import { CEREMONY_TIMEOUT_MS, issueChallenge, takeChallenge } from './challenges.js';
import { relyingPartyFor, type CeremonyContext } from './ceremony.js';

const CHALLENGE_ATTEMPTS = 5;
const NOT_ACCEPTED = 'This passkey was not accepted; try again or sign in with your password';

const ipSubjects = (ip: string | null) => (ip ? [`ip:${ip}`] : []);

export interface SignedIn {
  user: UserRecord;
  session: StartedSession;
}

/** Options for a passwordless sign-in: any passkey of this site, the person verified on it. */
export async function signInOptions(
  deps: ServiceDeps,
  { ctx, requestOrigin }: CeremonyContext,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await assertNotThrottled(deps, ipSubjects(ctx.ip));
  const rp = await relyingPartyFor(deps, requestOrigin);
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    challenge: await issueChallenge(deps, 'sign_in', null),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
  });
}

/** Counts a refused assertion against the IP (and the account when the passkey names one). */
async function refuse(
  deps: ServiceDeps,
  ctx: RequestContext,
  result: AssertionResult,
): Promise<never> {
  if (result.ok) throw new Error('refuse() of an accepted assertion');
  const user = result.user;
  await recordFailure(deps, user ? subjectsFor(deps, user.email, ctx.ip) : ipSubjects(ctx.ip));
  if (result.reason === 'cloned' && user && result.passkey)
    await audit(
      deps,
      ctx,
      'auth.passkey_clone_suspected',
      { type: 'user', id: user.id },
      `Passkey "${result.passkey.name}" of ${user.email} answered with a signature counter that did not rise; refused`,
    );
  else
    await audit(
      deps,
      ctx,
      'auth.login_failed',
      user ? { type: 'user', id: user.id } : null,
      user
        ? `Passkey sign-in refused for ${user.email} (${result.reason})`
        : 'Passkey sign-in with a passkey this instance does not know',
    );
  throw unauthenticated(NOT_ACCEPTED);
}

async function signedIn(
  deps: ServiceDeps,
  ctx: RequestContext,
  user: UserRecord,
  how: string,
): Promise<SignedIn> {
  await deps.repos.loginFailures.clear(subjectsFor(deps, user.email, ctx.ip)[0]!);
  await audit(deps, userContext(ctx, user), 'auth.login', { type: 'user', id: user.id }, how);
  return { user, session: await startSession(deps, user, ctx) };
}

/** Passwordless sign-in: the passkey names its person, and stands for password and second factor. */
export async function signInWithPasskey(
  deps: ServiceDeps,
  { ctx, requestOrigin }: CeremonyContext,
  response: WebAuthnResponse,
): Promise<SignedIn> {
  await assertNotThrottled(deps, ipSubjects(ctx.ip));
  const { challenge } = await takeChallenge(deps, response.response.clientDataJSON, 'sign_in');
  const rp = await relyingPartyFor(deps, requestOrigin);
  const result = await verifyAssertion(deps, rp, challenge, response, true);
  if (!result.ok) return refuse(deps, ctx, result);
  await assertNotThrottled(deps, subjectsFor(deps, result.user.email, ctx.ip));
  return signedIn(
    deps,
    ctx,
    result.user,
    `Signed in as ${result.user.email} with passkey "${result.passkey.name}"`,
  );
}

/** The password step's challenge, counted as one attempt; refused once lapsed or used up. */
async function passwordStep(deps: ServiceDeps, loginChallenge: string): Promise<UserRecord> {
  const c = await deps.repos.sessions.useChallenge(sha256(loginChallenge));
  const now = deps.clock.now();
  if (!c || c.expiresAt <= now || c.attempts > CHALLENGE_ATTEMPTS) {
    if (c) await deps.repos.sessions.removeChallenge(sha256(loginChallenge));
    throw unauthenticated('This sign-in has expired; enter your password again');
  }
  const user = await deps.repos.users.findById(c.userId);
  if (!user || user.disabled)
    throw unauthenticated('This sign-in has expired; enter your password again');
  return user;
}

/** Options for the second step of a password sign-in: one of this person's passkeys. */
export async function secondFactorOptions(
  deps: ServiceDeps,
  { ctx, requestOrigin }: CeremonyContext,
  loginChallenge: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const user = await passwordStep(deps, loginChallenge);
  await assertNotThrottled(deps, subjectsFor(deps, user.email, ctx.ip));
  const passkeys = await deps.repos.passkeys.listForUser(user.id);
  if (passkeys.length === 0) throw unauthenticated('This account has no passkey; enter a code');
  const rp = await relyingPartyFor(deps, requestOrigin);
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    challenge: await issueChallenge(deps, 'second_factor', user.id, sha256(loginChallenge)),
    timeout: CEREMONY_TIMEOUT_MS,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
    // The password was the first factor: presence on the authenticator is the second.
    userVerification: 'preferred',
  });
}

/** Finishes a password sign-in with a passkey instead of a TOTP code. */
export async function secondFactorWithPasskey(
  deps: ServiceDeps,
  { ctx, requestOrigin }: CeremonyContext,
  input: { challenge: string; response: WebAuthnResponse },
): Promise<SignedIn> {
  const user = await passwordStep(deps, input.challenge);
  await assertNotThrottled(deps, subjectsFor(deps, user.email, ctx.ip));
  const taken = await takeChallenge(deps, input.response.response.clientDataJSON, 'second_factor');
  const rp = await relyingPartyFor(deps, requestOrigin);
  const result =
    taken.record.userId === user.id && taken.record.loginChallengeHash === sha256(input.challenge)
      ? await verifyAssertion(deps, rp, taken.challenge, input.response, false)
      : ({ ok: false, reason: 'invalid', passkey: null, user } as const);
  // Only the account's own passkeys count, whatever else the browser offered.
  if (!result.ok || result.user.id !== user.id)
    return refuse(
      deps,
      ctx,
      result.ok ? { ok: false, reason: 'invalid', passkey: null, user } : result,
    );
  await deps.repos.sessions.removeChallenge(sha256(input.challenge));
  return signedIn(
    deps,
    ctx,
    user,
    `Signed in as ${user.email} with two-factor (passkey "${result.passkey.name}")`,
  );
}
