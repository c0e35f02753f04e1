import type { EscalationPolicy, EscalationStep, EscalationTarget } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { CheckboxField, TextInputField } from '../../monitors/components/form/controls';
import { channelListQuery } from '../../notifications/api/queries';
import { NotificationTabs } from '../../notifications/components/NotificationTabs';
import { usersQuery } from '../../settings/api/users';
import { scheduleListQuery } from '../api/oncall';
import { policyListQuery, tagPoliciesQuery, useDeletePolicy, useSavePolicy } from '../api/policies';
import { PolicyTags } from './PolicyTags';

interface StepDraft {
  wait: string;
  channelIds: number[];
  monitorChannels: boolean;
  /** People through their verified contact methods, and whoever is on call (ADR 60). */
  userIds: number[];
  scheduleIds: number[];
  everyone: boolean;
}

const emptyStep = (): StepDraft => ({
  wait: '0',
  channelIds: [],
  monitorChannels: false,
  userIds: [],
  scheduleIds: [],
  everyone: false,
});

function toDraft(p: EscalationPolicy | null) {
  return {
    name: p?.name ?? '',
    repeat: String(p?.repeat ?? 0),
    steps: p
      ? p.steps.map((s) => ({
          wait: String(s.waitMinutes),
          channelIds: s.targets.flatMap((t) => (t.kind === 'channel' ? [t.channelId] : [])),
          monitorChannels: s.targets.some((t) => t.kind === 'monitor_channels'),
          userIds: s.targets.flatMap((t) => (t.kind === 'user' ? [t.userId] : [])),
          scheduleIds: s.targets.flatMap((t) => (t.kind === 'schedule' ? [t.scheduleId] : [])),
          everyone: s.targets.some((t) => t.kind === 'everyone'),
        }))
      : [emptyStep()],
  };
}

function toSteps(steps: StepDraft[]): EscalationStep[] {
  return steps.map((s) => ({
    waitMinutes: Number(s.wait),
    targets: [
      ...s.channelIds.map((channelId): EscalationTarget => ({ kind: 'channel', channelId })),
      ...(s.monitorChannels ? [{ kind: 'monitor_channels' } as const] : []),
      ...s.userIds.map((userId): EscalationTarget => ({ kind: 'user', userId })),
      ...s.scheduleIds.map((scheduleId): EscalationTarget => ({ kind: 'schedule', scheduleId })),
      ...(s.everyone ? [{ kind: 'everyone' } as const] : []),
    ],
  }));
}

/** Creates or edits one policy: its name, its steps in order, and how often it repeats. */
function PolicyForm({ policy, onDone }: { policy: EscalationPolicy | null; onDone: () => void }) {
  const channels = useQuery(channelListQuery());
  const people = useQuery(usersQuery());
  const schedules = useQuery(scheduleListQuery());
  const save = useSavePolicy(policy?.id ?? null);
  const toggle = (list: number[], id: number, on: boolean) =>
    on ? [...list, id] : list.filter((x) => x !== id);
  const [d, setD] = useState(() => toDraft(policy));
  const setStep = (i: number, s: Partial<StepDraft>) =>
    setD({ ...d, steps: d.steps.map((x, j) => (j === i ? { ...x, ...s } : x)) });
  return (
    <form
      className="panel section-gap"
      aria-label={policy ? `Edit ${policy.name}` : 'New escalation policy'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          {
            name: d.name,
            repeat: Number(d.repeat),
            steps: toSteps(d.steps),
            // Quiet hours are set over the API for now; an edit here keeps them.
            quietHours: policy?.quietHours ?? [],
          },
          { onSuccess: onDone },
        );
      }}
    >
      <h2 className="panel__title">{policy ? `Edit “${policy.name}”` : 'New escalation policy'}</h2>
      <div className="form__grid form__grid--narrow">
        <TextInputField
          name="name"
          label="Name"
          kind="text"
          input={{ value: d.name, onChange: (e) => setD({ ...d, name: e.target.value }) }}
        />
        <TextInputField
          name="repeat"
          label="Repeat (times)"
          hint="Runs the steps again this often while nobody acknowledges (0–9)."
          kind="number"
          input={{ value: d.repeat, onChange: (e) => setD({ ...d, repeat: e.target.value }) }}
        />
      </div>
      <ol className="esc-steps">
        {d.steps.map((s, i) => (
          <li key={i} className="esc-step">
            <fieldset>
              <legend className="field__label">Step {i + 1}</legend>
              <TextInputField
                name={`steps.${i}.waitMinutes`}
                label={i === 0 ? 'Minutes after the DOWN alert' : 'Minutes after the step before'}
                kind="number"
                input={{ value: s.wait, onChange: (e) => setStep(i, { wait: e.target.value }) }}
              />
              <CheckboxField
                name={`steps.${i}.monitor`}
                label="The monitor’s own channels"
                checked={s.monitorChannels}
                onChange={(on) => setStep(i, { monitorChannels: on })}
              />
              {(channels.data?.items ?? []).map((c) => (
                <CheckboxField
                  key={c.id}
                  name={`steps.${i}.channel-${c.id}`}
                  label={c.name}
                  checked={s.channelIds.includes(c.id)}
                  onChange={(on) =>
                    setStep(i, {
                      channelIds: on
                        ? [...s.channelIds, c.id]
                        : s.channelIds.filter((x) => x !== c.id),
                    })
                  }
                />
              ))}
              {(people.data?.items ?? [])
                .filter((u) => !u.disabled)
                .map((u) => (
                  <CheckboxField
                    key={`u${u.id}`}
                    name={`steps.${i}.user-${u.id}`}
                    label={`Person: ${u.name || u.email}`}
                    checked={s.userIds.includes(u.id)}
                    onChange={(on) => setStep(i, { userIds: toggle(s.userIds, u.id, on) })}
                  />
                ))}
              {(schedules.data?.items ?? []).map((sc) => (
                <CheckboxField
                  key={`s${sc.id}`}
                  name={`steps.${i}.schedule-${sc.id}`}
                  label={`Whoever is on call in ${sc.name}`}
                  checked={s.scheduleIds.includes(sc.id)}
                  onChange={(on) => setStep(i, { scheduleIds: toggle(s.scheduleIds, sc.id, on) })}
                />
              ))}
              <CheckboxField
                name={`steps.${i}.everyone`}
                label="Everyone (each person’s verified contact methods)"
                checked={s.everyone}
                onChange={(on) => setStep(i, { everyone: on })}
              />
              {d.steps.length > 1 && (
                <Button
                  size="sm"
                  variant="ghost"
                  icon="trash"
                  onClick={() => setD({ ...d, steps: d.steps.filter((_, j) => j !== i) })}
                >
                  Remove step {i + 1}
                </Button>
              )}
            </fieldset>
          </li>
        ))}
      </ol>
      <div className="actions__buttons">
        <Button
          size="sm"
          icon="plus"
          onClick={() => setD({ ...d, steps: [...d.steps, { ...emptyStep(), wait: '10' }] })}
        >
          Add a step
        </Button>
      </div>
      {save.error ? <ErrorNotice error={save.error} className="section-gap" /> : null}
      <div className="actions__buttons section-gap">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save policy
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

interface Names {
  channel: (id: number) => string;
  person: (id: number) => string;
  schedule: (id: number) => string;
}

function targetName(t: EscalationTarget, n: Names): string {
  if (t.kind === 'channel') return n.channel(t.channelId);
  if (t.kind === 'user') return n.person(t.userId);
  if (t.kind === 'schedule') return `on call in ${n.schedule(t.scheduleId)}`;
  if (t.kind === 'everyone') return 'everyone';
  return 'the monitor’s channels';
}

function describeSteps(p: EscalationPolicy, names: Names): string {
  const steps = p.steps.map((s, i) => {
    const who = s.targets.map((t) => targetName(t, names)).join(', ');
    const when =
      i === 0
        ? s.waitMinutes === 0
          ? 'at once'
          : `after ${s.waitMinutes} min`
        : `${s.waitMinutes} min later`;
    return `${when}: ${who}`;
  });
  return steps.join(' → ') + (p.repeat > 0 ? `; repeated ${p.repeat}×` : '');
}

/** Escalation policies (ADR 39): who hears about an outage, in which order, until acknowledged. */
export function PoliciesScreen() {
  const policies = useQuery(policyListQuery());
  const channels = useQuery(channelListQuery());
  const remove = useDeletePolicy();
  const [editing, setEditing] = useState<EscalationPolicy | 'new' | null>(null);
  const [deleting, setDeleting] = useState<EscalationPolicy | null>(null);
  const people = useQuery(usersQuery());
  const schedules = useQuery(scheduleListQuery());
  const names: Names = {
    channel: (id) => channels.data?.items.find((c) => c.id === id)?.name ?? `channel ${id}`,
    person: (id) => {
      const u = people.data?.items.find((x) => x.id === id);
      return u ? u.name || u.email : `person ${id}`;
    },
    schedule: (id) => schedules.data?.items.find((x) => x.id === id)?.name ?? `schedule ${id}`,
  };
  const items = policies.data?.items ?? [];
  const tagPolicies = useQuery(tagPoliciesQuery());
  const policyName = (id: number) => items.find((p) => p.id === id)?.name ?? `policy ${id}`;
  return (
    <>
      <title>Escalation · Notifications · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Notifications</h1>
          <p className="page-sub">
            Escalation policies: who hears about an outage, in which order, until someone
            acknowledges.
          </p>
        </div>
        {editing === null && (
          <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>
            New policy
          </Button>
        )}
      </div>
      <NotificationTabs />
      {editing !== null && (
        <PolicyForm
          key={editing === 'new' ? 'new' : editing.id}
          policy={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      )}
      {policies.error ? <ErrorNotice error={policies.error} /> : null}
      {items.length === 0 && !policies.isPending && editing === null && (
        <p className="muted section-gap">
          No policies yet: every monitor alerts its channels at once.
        </p>
      )}
      <ul className="esc-list section-gap" aria-label="Escalation policies">
        {items.map((p) => (
          <li key={p.id} id={`policy-${p.id}`} className="panel esc-item">
            <div>
              <h2 className="panel__title">{p.name}</h2>
              <p>{describeSteps(p, names)}</p>
              {p.brokenTargets.length > 0 && (
                <Notice tone="warning" title="Some targets no longer exist">
                  {p.brokenTargets.map((b) => b.message).join('; ')}. Those steps notify the
                  monitor’s channels instead until you edit the policy.
                </Notice>
              )}
              <p className="muted">
                {p.monitorIds.length === 0
                  ? 'No monitor names it itself.'
                  : `${p.monitorIds.length} ${p.monitorIds.length === 1 ? 'monitor names' : 'monitors name'} it.`}
              </p>
              {tagPolicies.data && (
                <PolicyTags
                  policy={p}
                  tagPolicies={tagPolicies.data.items}
                  policyName={policyName}
                />
              )}
            </div>
            <div className="actions__buttons">
              <Button size="sm" icon="edit" onClick={() => setEditing(p)}>
                Edit
              </Button>
              <Button size="sm" variant="ghost" icon="trash" onClick={() => setDeleting(p)}>
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete policy"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() =>
          deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })
        }
      >
        Monitors must use another policy first; running escalations end with their current step.
      </ConfirmDialog>
    </>
  );
}
