import type { FieldError, TagPolicyList } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

export async function listTagPolicies(deps: ServiceDeps): Promise<TagPolicyList> {
  return { items: await deps.repos.contactMethods.tagPolicies() };
}

/**
 * Replaces which policy each tag uses (ADR 61). A tag named twice or a policy that does not
 * exist is refused with the row named.
 */
export async function setTagPolicies(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: TagPolicyList,
): Promise<TagPolicyList> {
  const known = new Set((await deps.repos.escalations.listPolicies()).map((p) => p.id));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  input.items.forEach((item, i) => {
    if (seen.has(item.tag))
      errors.push({
        path: `items.${i}.tag`,
        message: `“${item.tag}” is listed twice`,
        code: 'custom',
      });
    seen.add(item.tag);
    if (!known.has(item.policyId))
      errors.push({
        path: `items.${i}.policyId`,
        message: `Escalation policy ${item.policyId} does not exist (deleted?)`,
        code: 'custom',
      });
  });
  if (errors.length > 0) throw validationFailed(errors, errors[0]!.message);
  await deps.repos.contactMethods.setTagPolicies(input.items);
  await audit(
    deps,
    ctx,
    'tag_policy.updated',
    null,
    input.items.length === 0
      ? 'No tag uses an escalation policy now'
      : `Tags with a policy: ${input.items.map((i) => i.tag).join(', ')}`.slice(0, 900),
  );
  return listTagPolicies(deps);
}
