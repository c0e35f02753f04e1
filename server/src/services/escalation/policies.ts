import type {
  EscalationPolicy,
  EscalationPolicyInput,
  EscalationTarget,
  FieldError,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { conflict, notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

/**
 * The targets of a policy that do not resolve: a channel, person or schedule that does not
 * exist (ADR 60). A typo must not route an outage to nobody.
 */
async function missingTargets(
  deps: ServiceDeps,
  steps: EscalationPolicyInput['steps'],
): Promise<FieldError[]> {
  const named = steps.flatMap((s, i) => s.targets.map((t, j) => ({ t, i, j })));
  const ids = (kind: string, pick: (t: EscalationTarget) => number) =>
    named.filter((n) => n.t.kind === kind).map((n) => pick(n.t));
  const channels = await deps.repos.escalations.existingChannels(
    ids('channel', (t) => (t.kind === 'channel' ? t.channelId : 0)),
  );
  const people = await deps.repos.contactMethods.existing(
    ids('user', (t) => (t.kind === 'user' ? t.userId : 0)),
    ids('schedule', (t) => (t.kind === 'schedule' ? t.scheduleId : 0)),
  );
  const errors: FieldError[] = [];
  for (const { t, i, j } of named) {
    const at = `steps.${i}.targets.${j}`;
    if (t.kind === 'channel' && !channels.has(t.channelId))
      errors.push({
        path: `${at}.channelId`,
        message: `Channel ${t.channelId} does not exist (deleted?)`,
        code: 'custom',
      });
    if (t.kind === 'user' && !people.users.has(t.userId))
      errors.push({
        path: `${at}.userId`,
        message: `Person ${t.userId} does not exist (deleted?)`,
        code: 'custom',
      });
    if (t.kind === 'schedule' && !people.schedules.has(t.scheduleId))
      errors.push({
        path: `${at}.scheduleId`,
        message: `On-call schedule ${t.scheduleId} does not exist (deleted?)`,
        code: 'custom',
      });
  }
  return errors;
}

async function checkTargets(deps: ServiceDeps, input: EscalationPolicyInput): Promise<void> {
  const errors = await missingTargets(deps, input.steps);
  if (errors.length > 0) throw validationFailed(errors, errors[0]!.message);
}

/** A stored policy with the targets deleted since it was saved pointed out. */
async function withBroken(deps: ServiceDeps, p: EscalationPolicy): Promise<EscalationPolicy> {
  const broken = await missingTargets(deps, p.steps);
  return { ...p, brokenTargets: broken.map((e) => ({ path: e.path, message: e.message })) };
}

export async function listPolicies(deps: ServiceDeps): Promise<{ items: EscalationPolicy[] }> {
  const items = await deps.repos.escalations.listPolicies();
  return { items: await Promise.all(items.map((p) => withBroken(deps, p))) };
}

export async function getPolicy(deps: ServiceDeps, id: number): Promise<EscalationPolicy> {
  const p = await deps.repos.escalations.findPolicy(id);
  if (!p) throw notFound('Escalation policy');
  return withBroken(deps, p);
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
  const tags = (await deps.repos.contactMethods.tagPolicies()).filter((t) => t.policyId === id);
  if (tags.length > 0)
    throw conflict(
      `Tags use this policy (${tags.map((t) => t.tag).join(', ')}); choose another for them first`,
    );
  await deps.repos.escalations.deletePolicy(id);
  await audit(
    deps,
    ctx,
    'escalation_policy.deleted',
    { type: 'escalation_policy', id },
    `Deleted escalation policy “${p.name}”`,
  );
}
