import type { Monitor } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { policyListQuery, tagPoliciesQuery } from '../api/policies';
import { policySource } from '../policy-source';

const tagLink = (t: string) => (
  <Link to={`/?tag=${encodeURIComponent(t)}`} className="tag tag--link">
    {t}
  </Link>
);

/**
 * The monitor page's escalation policy (ADR 61): the one that applies, whether it is set on
 * the monitor or comes from a tag, and — when several of its tags carry a policy — which tag
 * won and why. Nothing when no policy applies (its channels are alerted at once, as the
 * notification coverage already says).
 */
export function MonitorPolicyPanel({ monitor }: { monitor: Monitor }) {
  const policies = useQuery(policyListQuery());
  const tagPolicies = useQuery(tagPoliciesQuery());
  if (!policies.data || !tagPolicies.data) return null;
  const source = policySource(
    { tags: monitor.tags, escalationPolicyId: monitor.alerts.escalationPolicyId },
    tagPolicies.data.items,
  );
  if (source.kind === 'none') return null;
  const name = (id: number) => policies.data.items.find((p) => p.id === id)?.name ?? `policy ${id}`;
  const policyLink = (id: number) => (
    <Link to={`/notifications/escalation#policy-${id}`}>{name(id)}</Link>
  );
  const others = source.tagged.filter((t) => source.kind === 'monitor' || t.tag !== source.tag);
  return (
    <section className="panel policy-source" aria-labelledby="policy-source-heading">
      <div className="panel__head">
        <h2 id="policy-source-heading" className="panel__title">
          Escalation policy
        </h2>
      </div>
      <p>
        {policyLink(source.policyId)}
        {source.kind === 'monitor' ? (
          ', set on this monitor.'
        ) : (
          <>, from tag {tagLink(source.tag)}.</>
        )}
      </p>
      {others.length > 0 && (
        <p className="muted">
          {source.kind === 'monitor'
            ? 'It wins over the policies its tags carry: '
            : `Of its tags with a policy, “${source.tag}” sorts first by name, so it wins over `}
          {others.map((t, i) => (
            <span key={t.tag}>
              {i > 0 && ', '}
              {tagLink(t.tag)} ({name(t.policyId)})
            </span>
          ))}
          .
        </p>
      )}
    </section>
  );
}
