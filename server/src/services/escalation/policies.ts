import type { EscalationPolicy, EscalationPolicyInput, FieldError } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { conflict, notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

/** A policy may only name channels that exist: a typo must not route an outage to nobody. */
async function checkTargets(deps: ServiceDeps, input: EscalationPolicyInput): Promise<void> {
  const named = input.steps.flatMap((s, i) =>
    s.targets.flatMap((t, j) => (t.kind === 'channel' ? [{ id: t.channelId, i, j }] : [])),
  );
  const existing = await deps.repos.escalations.existingChannels(named.map((n) => n.id));
  const errors: FieldError[] = named
    .filter((n) => !existing.has(n.id))
    .map((n) => ({
      path: `steps.${n.i}.targets.${n.j}.channelId`,
      message: `Channel ${n.id} does not exist (deleted?)`,
      code: 'custom',
    }));
  if (errors.length > 0) throw validationFailed(errors, errors[0]!.message);
}

export async function listPolicies(deps: ServiceDeps): Promise<{ items: EscalationPolicy[] }> {
  return { items: await deps.repos.escalations.listPolicies() };
}

export async function getPolicy(deps: ServiceDeps, id: number): Promise<EscalationPolicy> {
  const p = await deps.repos.escalations.findPolicy(id);
  if (!p) throw notFound('Escalation policy');
  return p;
}

export async function createPolicy(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: EscalationPolicyInput,
): Promise<EscalationPolicy> {
  await checkTargets(deps, input);
  const id = await deps.repos.escalations.createPolicy(input, deps.clock.now());
  await audit(
    deps,
    ctx,
    'escalation_policy.created',
    { type: 'escalation_policy', id },
    `Created escalation policy “${input.name}”`,
  );
  return getPolicy(deps, id);
}

export async function updatePolicy(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: EscalationPolicyInput,
): Promise<EscalationPolicy> {
  await checkTargets(deps, input);
  if (!(await deps.repos.escalations.updatePolicy(id, input, deps.clock.now())))
    throw notFound('Escalation policy');
  await audit(
    deps,
    ctx,
    'escalation_policy.updated',
    { type: 'escalation_policy', id },
    `Changed escalation policy “${input.name}”`,
  );
  return getPolicy(deps, id);
}

/** Refused while monitors use it: they would silently fall back to their own channels. */
export async function deletePolicy(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const p = await getPolicy(deps, id);
  if (p.monitorIds.length > 0) {
    const n = p.monitorIds.length;
    throw conflict(
      `${n} monitor${n === 1 ? '' : 's'} use${n === 1 ? 's' : ''} this policy (${p.monitorIds.slice(0, 10).join(', ')}); choose another for ${n === 1 ? 'it' : 'them'} first`,
    );
  }
  await deps.repos.escalations.deletePolicy(id);
  await audit(
    deps,
    ctx,
    'escalation_policy.deleted',
    { type: 'escalation_policy', id },
    `Deleted escalation policy “${p.name}”`,
  );
}
