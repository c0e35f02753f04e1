// The picker's own look lives with maintenance, where it was first used.
import '../../../../styles/maintenance.css';
import { useCallback } from 'react';
import type { GroupRule } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { MonitorPicker } from '../../../maintenance/components/MonitorPicker';
import { SelectField, TextInputField } from './controls';
import type { SectionProps } from './section-props';

/** A group monitor's "target": the monitors it is made of (ADR 47). */
export function GroupMembersFields({ v, monitorId, set, errorFor }: SectionProps) {
  const onChange = useCallback((value: string) => set('groupMembers', value, 'members'), [set]);
  return (
    <Field
      name="members"
      label="Members"
      hint="The monitors whose statuses make this group’s; paused ones and those in maintenance are left out. At most 100."
      error={errorFor('members')}
    >
      {(control) => (
        <MonitorPicker
          control={control}
          value={v.groupMembers}
          onChange={onChange}
          exclude={monitorId}
        />
      )}
    </Field>
  );
}

const ruleOptions: { value: GroupRule; label: string }[] = [
  { value: 'any_down', label: 'Down when any member is down' },
  { value: 'all_up', label: 'Up only when all members are up' },
  { value: 'percent_up', label: 'At least a share of members up' },
];

export function GroupRuleSection({ v, set, errorFor, text }: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Rule</legend>
      <p className="form__note">
        Judged from the members’ current statuses at every interval. A degraded member makes the
        group degraded (down under “all up”).
      </p>
      <div className="form__grid">
        <SelectField
          name="rule"
          label="Status rule"
          error={errorFor('rule')}
          value={v.groupRule}
          options={ruleOptions}
          onChange={(value) => set('groupRule', value)}
        />
        {v.groupRule === 'percent_up' && (
          <TextInputField
            name="minUpPercent"
            label="Least share up (%)"
            error={errorFor('minUpPercent')}
            hint="1 to 100; below it the group is down, at or above it degraded while any member fails."
            kind="number"
            input={text('groupMinUpPercent')}
          />
        )}
      </div>
    </fieldset>
  );
}
