import type { AckVia, Escalation } from '@pagewatch/contract';
import { actorUserId, type RequestContext } from '../../domain/actor.js';
import { verifyAckToken } from '../../escalation/ack-link.js';
import { conflict, notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

function labelOf(ctx: RequestContext): string {
  const a = ctx.actor;
  return a.type === 'user' || a.type === 'api_key' || a.type === 'system' ? a.label : 'someone';
}

/** From the UI or the API: the person (or key) signed in acknowledges. */
export async function acknowledgeEscalation(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  via: Extract<AckVia, 'ui' | 'api'>,
): Promise<Escalation> {
  const who = { label: labelOf(ctx), userId: actorUserId(ctx.actor) };
  const done = await deps.repos.escalations.acknowledge(id, who, via, deps.clock.now());
  if (done) {
    await audit(
      deps,
      ctx,
      'escalation.acknowledged',
      { type: 'escalation', id },
      `Acknowledged escalation ${id} (monitor ${done.monitorId})`,
    );
    return done;
  }
  const e = await deps.repos.escalations.find(id);
  if (!e) throw notFound('Escalation');
  throw conflict(
    e.acknowledgement
      ? `Already acknowledged by ${e.acknowledgement.by}`
      : 'The monitor recovered; there is nothing to acknowledge',
  );
}

export type LinkCheck =
  | {
      state: 'valid';
      escalation: Escalation;
      monitorName: string | null;
      channelName: string | null;
      /** The person a contact-method link was sent to (ADR 60). */
      personName?: string | null;
    }
  | { state: 'invalid' | 'expired' | 'done'; escalation: Escalation | null };

/** What a link stands for, without acting: the confirm page shows it. */
export async function describeAckLink(deps: ServiceDeps, token: string): Promise<LinkCheck> {
  const check = verifyAckToken(deps.secrets, token, deps.clock.now());
  if (!check.ok) return { state: check.reason, escalation: null };
  const e = await deps.repos.escalations.find(check.claim.escalationId);
  if (!e) return { state: 'invalid', escalation: null };
  if (e.acknowledgement || e.resolvedAt) return { state: 'done', escalation: e };
  const monitor = await deps.repos.monitors.findById(e.monitorId).catch(() => null);
  const cm = check.claim.contactMethodId;
  if (cm !== undefined) {
    const method = await deps.repos.contactMethods.forSend(cm).catch(() => null);
    const personName = method?.userName ?? null;
    return {
      state: 'valid',
      escalation: e,
      monitorName: monitor?.name ?? null,
      channelName: personName,
      personName,
    };
  }
  const channel = await deps.repos.deliveries.channel(check.claim.channelId).catch(() => null);
  return {
    state: 'valid',
    escalation: e,
    monitorName: monitor?.name ?? null,
    channelName: channel?.name ?? null,
  };
}

/**
 * The confirm page's POST: acknowledges in the name of the channel the link was sent
 * through. A tampered or expired link, or a second use, changes nothing.
 */
export async function acknowledgeByLink(
  deps: ServiceDeps,
  ctx: RequestContext,
  token: string,
): Promise<LinkCheck> {
  const seen = await describeAckLink(deps, token);
  if (seen.state !== 'valid') return seen;
  const label = seen.personName
    ? seen.personName
    : `a recipient of ${seen.channelName ? `“${seen.channelName}”` : 'an alert'}`;
  const done = await deps.repos.escalations.acknowledge(
    seen.escalation.id,
    { label, userId: null },
    'link',
    deps.clock.now(),
  );
  if (!done)
    return { state: 'done', escalation: await deps.repos.escalations.find(seen.escalation.id) };
  await audit(
    deps,
    ctx,
    'escalation.acknowledged',
    { type: 'escalation', id: done.id },
    `Acknowledged escalation ${done.id} by link (${label})`,
  );
  return { ...seen, escalation: done };
}
