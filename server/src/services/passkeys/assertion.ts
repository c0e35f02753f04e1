import type { WebAuthnResponse } from '@pagewatch/contract';
import {
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeyRecord } from '../../db/repositories/passkeys.js';
import type { UserRecord } from '../../db/repositories/users.js';
import type { ServiceDeps } from '../deps.js';
import type { RelyingParty } from './relying-party.js';

export type AssertionResult =
  | { ok: true; passkey: PasskeyRecord; user: UserRecord }
  | {
      ok: false;
      /** unknown: no such passkey; invalid: signature, origin, flags; cloned: the counter went back. */
      reason: 'unknown' | 'invalid' | 'cloned' | 'disabled';
      passkey: PasskeyRecord | null;
      user: UserRecord | null;
    };

/**
 * Checks a signed assertion against the stored passkey and records its use. The signature
 * counter must rise when the authenticator keeps one (the library refuses otherwise: a clone
 * is suspected); synced passkeys report 0 and are let through, as the library advises.
 */
export async function verifyAssertion(
  deps: ServiceDeps,
  rp: RelyingParty,
  challenge: string,
  response: WebAuthnResponse,
  requireUserVerification: boolean,
): Promise<AssertionResult> {
  const passkey = await deps.repos.passkeys.findByCredentialId(response.id);
  if (!passkey) return { ok: false, reason: 'unknown', passkey: null, user: null };
  const user = await deps.repos.users.findById(passkey.userId);
  if (!user || user.disabled) return { ok: false, reason: 'disabled', passkey, user };
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification,
    });
  } catch (err) {
    const cloned = /counter/i.test((err as Error).message);
    return { ok: false, reason: cloned ? 'cloned' : 'invalid', passkey, user };
  }
  if (!verification.verified) return { ok: false, reason: 'invalid', passkey, user };
  const info = verification.authenticationInfo;
  const recorded = await deps.repos.passkeys.recordUse(
    passkey.id,
    passkey.counter,
    info.newCounter,
    info.credentialBackedUp,
    deps.clock.now(),
  );
  // Another sign-in moved the counter since it was read: this assertion is stale.
  if (!recorded && passkey.counter > 0) return { ok: false, reason: 'cloned', passkey, user };
  return { ok: true, passkey, user };
}
