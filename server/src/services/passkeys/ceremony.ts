import { createHmac } from 'node:crypto';
import type { RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { settingsOf } from '../settings/read.js';
import { relyingParty, type RelyingParty } from './relying-party.js';

/** Where a ceremony runs: the request's own origin, used when no public URL is configured. */
export interface CeremonyContext {
  ctx: RequestContext;
  requestOrigin: string;
}

export async function relyingPartyFor(deps: ServiceDeps, origin: string): Promise<RelyingParty> {
  const { instanceName } = await settingsOf(deps).get('general');
  return relyingParty(deps.publicUrl, origin, instanceName);
}

/**
 * The WebAuthn user handle of an account: a keyed hash of its id, the same for every passkey
 * (an authenticator keeps one per account) and saying nothing about the person.
 */
export const userHandle = (deps: Pick<ServiceDeps, 'instanceKey'>, userId: number): Uint8Array =>
  createHmac('sha256', deps.instanceKey).update(`webauthn-user:${userId}`).digest();

/** The signed-in person a passkey is managed for (not an API key). */
export async function callerOf(deps: ServiceDeps, ctx: RequestContext): Promise<UserRecord> {
  if (ctx.actor.type !== 'user') throw forbidden('Passkeys belong to a signed-in person');
  const user = await deps.repos.users.findById(ctx.actor.id);
  if (!user) throw notFound('Account');
  return user;
}
