import type { Passkey } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { callerOf } from './ceremony.js';
import { presentPasskey } from './presenters.js';

export async function listPasskeys(deps: ServiceDeps, ctx: RequestContext): Promise<Passkey[]> {
  const user = await callerOf(deps, ctx);
  return (await deps.repos.passkeys.listForUser(user.id)).map(presentPasskey);
}

export async function renamePasskey(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  name: string,
): Promise<Passkey> {
  const user = await callerOf(deps, ctx);
  const before = (await deps.repos.passkeys.listForUser(user.id)).find((p) => p.id === id);
  if (!before || !(await deps.repos.passkeys.rename(user.id, id, name))) throw notFound('Passkey');
  if (before.name !== name)
    await audit(
      deps,
      ctx,
      'auth.passkey_renamed',
      { type: 'user', id: user.id },
      `Renamed passkey "${before.name}" → "${name}"`,
    );
  return presentPasskey({ ...before, name });
}

/** Removes one of the caller's passkeys; the next request sees whether a factor is left. */
export async function removePasskey(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const user = await callerOf(deps, ctx);
  const removed = await deps.repos.passkeys.remove(user.id, id);
  if (!removed) throw notFound('Passkey');
  // Cached sessions carry whether the person has a second factor (ADR 51).
  deps.authCache.evictUser(user.id);
  await audit(
    deps,
    ctx,
    'auth.passkey_removed',
    { type: 'user', id: user.id },
    `Removed passkey "${removed.name}"`,
  );
}
