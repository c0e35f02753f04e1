import type { PasskeyRegistered, PasskeyRegistration } from '@pagewatch/contract';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { conflict, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import { newRecoveryCodes, recoveryHash } from '../auth/totp.js';
import { endUserSessions } from '../auth/sessions.js';
import type { ServiceDeps } from '../deps.js';
import { CEREMONY_TIMEOUT_MS, issueChallenge, takeChallenge } from './challenges.js';
import { callerOf, relyingPartyFor, userHandle, type CeremonyContext } from './ceremony.js';
import { presentPasskey } from './presenters.js';

/** At most this many passkeys per person: enough for every device, bounded for the list. */
export const MAX_PASSKEYS = 20;

/** Options for navigator.credentials.create(): a discoverable credential, none registered twice. */
export async function registrationOptions(
  deps: ServiceDeps,
  { ctx, requestOrigin }: CeremonyContext,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const user = await callerOf(deps, ctx);
  const existing = await deps.repos.passkeys.listForUser(user.id);
  if (existing.length >= MAX_PASSKEYS)
    throw conflict(`You have ${MAX_PASSKEYS} passkeys; remove one before adding another`);
  const rp = await relyingPartyFor(deps, requestOrigin);
  return generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new Uint8Array(userHandle(deps, user.id)),
    challenge: await issueChallenge(deps, 'register', user.id),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    // Resident keys make passwordless sign-in possible; verification is asked for at sign-in.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
}

const refused = (message: string) =>
  validationFailed([{ path: 'response', message, code: 'passkey_refused' }], message);

/**
 * Verifies the browser's answer and stores the passkey. The first passkey of an account without
 * recovery codes brings ten, shown once, so losing the device does not lock the person out.
 */
export async function registerPasskey(
  deps: ServiceDeps,
  { ctx, requestOrigin }: CeremonyContext,
  input: PasskeyRegistration,
): Promise<PasskeyRegistered> {
  const user = await callerOf(deps, ctx);
  const { challenge, record } = await takeChallenge(
    deps,
    input.response.response.clientDataJSON,
    'register',
  );
  if (record.userId !== user.id) throw refused('This passkey request was started by someone else');
  const rp = await relyingPartyFor(deps, requestOrigin);
  let info;
  try {
    const result = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
    if (!result.verified) throw new Error('not verified');
    info = result.registrationInfo;
  } catch (err) {
    throw refused(`The passkey could not be verified: ${(err as Error).message}`);
  }
  const { credential } = info;
  if (await deps.repos.passkeys.findByCredentialId(credential.id))
    throw conflict('This passkey is already registered');
  const now = deps.clock.now();
  const passkey = await deps.repos.passkeys.insert({
    userId: user.id,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    backedUp: info.credentialBackedUp,
    name: input.name,
    createdAt: now,
  });
  let recoveryCodes: string[] = [];
  if (user.recoveryCodeHashes.length === 0) {
    recoveryCodes = newRecoveryCodes();
    await deps.repos.users.update(
      user.id,
      { recoveryCodeHashes: recoveryCodes.map(recoveryHash) },
      now,
    );
  }
  // A second factor added: other sessions must prove it too (as after turning on TOTP).
  if (ctx.actor.type === 'user') await endUserSessions(deps, user.id, ctx.actor.sessionHash);
  await audit(
    deps,
    ctx,
    'auth.passkey_registered',
    { type: 'user', id: user.id },
    `Added passkey "${passkey.name}"${info.credentialBackedUp ? ' (synced)' : ''}`,
  );
  return { passkey: presentPasskey(passkey), recoveryCodes };
}
