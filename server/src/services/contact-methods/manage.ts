import type { ContactMethod, ContactMethodCreated, ContactMethodParsed } from '@pagewatch/contract';
import { actorUserId, type RequestContext } from '../../domain/actor.js';
import { notFound, unauthenticated } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { sealSecrets, secretNames } from '../notification-channels/secrets.js';
import { sendCode } from './verify.js';

/** The signed-in person (an API key acts for its creator); contact methods are their own. */
export function selfOf(ctx: RequestContext): number {
  const id = actorUserId(ctx.actor);
  if (id === null) throw unauthenticated();
  return id;
}

/** Names of a method's sealed secrets; the values stay sealed. */
export const namesOf =
  (deps: ServiceDeps) =>
  (sealed: string | null): string[] =>
    sealed === null
      ? []
      : secretNames(JSON.parse(deps.secrets.open(sealed)) as Record<string, unknown>);

export async function listContactMethods(
  deps: ServiceDeps,
  userId: number,
): Promise<{ items: ContactMethod[] }> {
  return { items: await deps.repos.contactMethods.listOfUser(userId, namesOf(deps)) };
}

/** A person's method, or 404 when it is someone else's (nobody learns another's ids). */
export async function ownMethod(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<ContactMethod> {
  const m = await deps.repos.contactMethods.find(id, namesOf(deps));
  if (!m || m.userId !== selfOf(ctx)) throw notFound('Contact method');
  return m;
}

/** Saves the method unverified and sends its code through it at once. */
export async function addContactMethod(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: ContactMethodParsed,
): Promise<ContactMethodCreated> {
  const userId = selfOf(ctx);
  const id = await deps.repos.contactMethods.create(
    {
      userId,
      kind: input.kind,
      label: input.label,
      config: input.config,
      sealedSecrets: sealSecrets(input.secrets, deps.secrets),
    },
    deps.clock.now(),
  );
  await audit(
    deps,
    ctx,
    'contact_method.created',
    { type: 'user', id: userId },
    `Added a ${input.kind} contact method${input.label ? ` “${input.label}”` : ''}`,
  );
  const sent = await sendCode(deps, id);
  const method = await ownMethod(deps, ctx, id);
  return { method, ...sent };
}

export async function removeContactMethod(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const m = await ownMethod(deps, ctx, id);
  await deps.repos.contactMethods.remove(id);
  await audit(
    deps,
    ctx,
    'contact_method.deleted',
    { type: 'user', id: m.userId },
    `Removed a ${m.kind} contact method${m.label ? ` “${m.label}”` : ''}`,
  );
}
