import type { EscalationPolicy, TagPolicy } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ErrorNotice } from '../../../components/ui/Notice';
import { tagsInUseQuery } from '../../monitors/api/tags-in-use';
import { SelectField } from '../../monitors/components/form/controls';
import { useSaveTagPolicies } from '../api/policies';

interface Props {
  policy: EscalationPolicy;
  /** Every tag's policy, as the API lists them. */
  tagPolicies: TagPolicy[];
  /** Policy names by id, to say where a tag would move from. */
  policyName: (id: number) => string;
}

/**
 * The tags whose monitors use this policy (ADR 61), with Detach, and Attach for a tag in use.
 * A tag has one policy: attaching a tag another policy has moves it here, and the choice says
 * so. The list is replaced as a whole, as the API takes it.
 */
export function PolicyTags({ policy, tagPolicies, policyName }: Props) {
  const save = useSaveTagPolicies();
  const inUse = useQuery(tagsInUseQuery());
  const [chosen, setChosen] = useState('');
  const mine = tagPolicies.filter((t) => t.policyId === policy.id);
  const offered = (inUse.data ?? []).filter((t) => !mine.some((m) => m.tag === t));
  const tag = offered.includes(chosen) ? chosen : (offered[0] ?? '');
  const owner = (t: string) => tagPolicies.find((x) => x.tag === t);
  const label = `Attach a tag to ${policy.name}`;
  return (
    <div className="esc-tags">
      {mine.length === 0 ? (
        <p className="muted">No tag uses it.</p>
      ) : (
        <>
          <p className="muted">Monitors with these tags use it, unless they name a policy:</p>
          <ul className="esc-tags__list" aria-label={`Tags using ${policy.name}`}>
            {mine.map((t) => (
              <li key={t.tag} className="esc-tags__item">
                <span className="tag">{t.tag}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  icon="x"
                  disabled={save.isPending}
                  onClick={() => save.mutate(tagPolicies.filter((x) => x.tag !== t.tag))}
                >
                  Detach<span className="visually-hidden"> tag {t.tag}</span>
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      {offered.length > 0 && (
        <form
          className="esc-tags__add"
          aria-label={label}
          onSubmit={(e) => {
            e.preventDefault();
            if (!tag) return;
            save.mutate([
              ...tagPolicies.filter((x) => x.tag !== tag),
              { tag, policyId: policy.id },
            ]);
          }}
        >
          <SelectField
            name={`policy-${policy.id}-tag`}
            label="Tag"
            value={tag}
            options={offered.map((t) => {
              const o = owner(t);
              return { value: t, label: o ? `${t} (moves from ${policyName(o.policyId)})` : t };
            })}
            onChange={setChosen}
          />
          <Button type="submit" size="sm" icon="plus" busy={save.isPending}>
            Attach tag
          </Button>
        </form>
      )}
      {save.error ? <ErrorNotice error={save.error} /> : null}
    </div>
  );
}
