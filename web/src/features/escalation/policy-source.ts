import type { TagPolicy } from '@pagewatch/contract';

/** Which escalation policy a monitor uses, and why (ADR 61). */
export type PolicySource =
  | { kind: 'none' }
  | { kind: 'monitor'; policyId: number; tagged: TagPolicy[] }
  | { kind: 'tag'; policyId: number; tag: string; tagged: TagPolicy[] };

/**
 * ADR 61's rule as the server applies it: the monitor's own policy; else, among its tags that
 * carry a policy, the one that sorts first in the database's order; else none. `tagPolicies`
 * comes from the API already in that order, so the first match is the winner and no collation
 * is reimplemented here. `tagged` lists every one of the monitor's tags that carries a policy,
 * so the UI can say which lost.
 */
export function policySource(
  monitor: { tags: readonly string[]; escalationPolicyId: number | null },
  tagPolicies: readonly TagPolicy[],
): PolicySource {
  const mine = new Set(monitor.tags);
  const tagged = tagPolicies.filter((t) => mine.has(t.tag));
  if (monitor.escalationPolicyId !== null)
    return { kind: 'monitor', policyId: monitor.escalationPolicyId, tagged };
  const first = tagged[0];
  if (!first) return { kind: 'none' };
  return { kind: 'tag', policyId: first.policyId, tag: first.tag, tagged };
}
