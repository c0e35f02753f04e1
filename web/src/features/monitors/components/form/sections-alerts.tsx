import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { useMe } from '../../../auth/api/session';
import { atLeast } from '../../../auth/roles';
import { channelListQuery } from '../../../notifications/api/queries';
import { ChannelDialog } from '../../../notifications/components/ChannelDialog';
import { KindBadge } from '../../../notifications/components/KindBadge';
import { policyListQuery } from '../../../escalation/api/policies';
import { CheckboxField, SelectField, TextInputField } from './controls';
import type { SectionProps } from './section-props';

/** Where and when this monitor alerts: its channels (defaults ticked when new) and rules. */
export function AlertsSection({ v, set, errorFor, text }: SectionProps) {
  const me = useMe();
  const channels = useQuery(channelListQuery());
  const items = useMemo(() => channels.data?.items ?? [], [channels.data]);
  const ticked = v.channelIds ?? items.filter((c) => c.isDefault).map((c) => c.id);
  const toggle = (id: number, on: boolean) =>
    set('channelIds', on ? [...ticked, id] : ticked.filter((c) => c !== id), 'channelIds');
  const err = (key: string, typed: string) => errorFor(`alerts.${key}`) ?? errorFor(typed);
  const [adding, setAdding] = useState(false);
  const policies = useQuery(policyListQuery());

  return (
    <fieldset className="form__section" id="alerts" data-testid="alerts-section">
      <legend className="form__legend">Alerts</legend>
      <fieldset className="alert-channels" aria-describedby="alert-channels-hint">
        <legend className="field__label">Send alerts to</legend>
        {items.map((c) => (
          <CheckboxField
            key={c.id}
            name={`channel-${c.id}`}
            label={
              <>
                <KindBadge kind={c.kind} compact /> {c.name}
                {!c.enabled && <span className="muted"> (disabled)</span>}
              </>
            }
            checked={ticked.includes(c.id)}
            onChange={(on) => toggle(c.id, on)}
          />
        ))}
      </fieldset>
      <p id="alert-channels-hint" className="field__hint">
        {channels.isPending
          ? 'Loading channels…'
          : items.length === 0
            ? 'No notification channels yet. '
            : 'Channels marked as default are ticked on new monitors. '}
        {items.length === 0 && !channels.isPending && !atLeast(me.role, 'admin') && (
          <strong>It will alert nobody until an admin adds one.</strong>
        )}
      </p>
      {items.length > 0 && ticked.length === 0 && (
        <p className="field__hint nochannel-hint" data-testid="no-channel-ticked">
          No channel ticked: when it goes down, nobody is told.
        </p>
      )}
      {atLeast(me.role, 'admin') && (
        <>
          <div className="add-channel">
            <Button size="sm" icon="plus" onClick={() => setAdding(true)}>
              Add a channel
            </Button>
          </div>
          <ChannelDialog
            open={adding}
            onClose={() => setAdding(false)}
            onSaved={(c) => {
              // The new channel is ticked; everything typed in this form stays as it was.
              set('channelIds', [...ticked.filter((id) => id !== c.id), c.id], 'channelIds');
              setAdding(false);
            }}
          />
        </>
      )}
      {errorFor('channelIds') && (
        <p className="field__error" role="alert">
          {errorFor('channelIds')}
        </p>
      )}
      <div className="form__grid form__grid--narrow">
        <SelectField
          name="alerts.severity"
          label="Severity"
          hint="Critical alerts break through quiet hours."
          error={errorFor('alerts.severity')}
          value={v.alertSeverity}
          options={[
            { value: 'critical', label: 'Critical' },
            { value: 'warning', label: 'Warning' },
          ]}
          onChange={(value) => set('alertSeverity', value)}
        />
        <SelectField
          name="alerts.escalationPolicyId"
          label="Escalation policy"
          hint="Who hears about an outage, and when; none: the channels above at once."
          error={errorFor('alerts.escalationPolicyId')}
          value={v.alertPolicyId === null ? '' : String(v.alertPolicyId)}
          options={[
            { value: '', label: 'None' },
            ...(policies.data?.items ?? []).map((p) => ({ value: String(p.id), label: p.name })),
          ]}
          onChange={(value) => set('alertPolicyId', value === '' ? null : Number(value))}
        />
        <TextInputField
          name="alerts.afterChecks"
          label="Alert after (checks)"
          error={err('afterChecks', 'alertAfterChecks')}
          hint="Confirmed-down checks before the first alert; 1 alerts at once."
          kind="number"
          input={text('alertAfterChecks')}
        />
        <TextInputField
          name="alerts.renotifyEveryChecks"
          label="Re-notify every (checks)"
          optional
          error={err('renotifyEveryChecks', 'alertRenotify')}
          hint="Reminders while it stays down; empty sends none."
          kind="number"
          input={{ placeholder: 'Never', ...text('alertRenotify') }}
        />
        <SelectField
          name="alerts.renotifyBackoff"
          label="Reminder back-off"
          hint="Fixed: every N checks; linear: N, 2N, 3N…; exponential: N, 2N, 4N…"
          error={errorFor('alerts.renotifyBackoff')}
          value={v.alertRenotifyBackoff}
          options={[
            { value: 'fixed', label: 'Fixed' },
            { value: 'linear', label: 'Linear' },
            { value: 'exponential', label: 'Exponential' },
          ]}
          onChange={(value) => set('alertRenotifyBackoff', value)}
        />
        <TextInputField
          name="alerts.flapThreshold"
          label="Flapping after (changes)"
          error={err('flapThreshold', 'alertFlapThreshold')}
          hint="More status changes than this within the window pause alerts."
          kind="number"
          input={text('alertFlapThreshold')}
        />
        <TextInputField
          name="alerts.flapWindowS"
          label="Flap window (seconds)"
          error={err('flapWindowS', 'alertFlapWindow')}
          hint="60 to 86,400."
          kind="number"
          input={text('alertFlapWindow')}
        />
      </div>
      <CheckboxField
        name="alerts.notifyRecovery"
        label="Alert when it recovers"
        checked={v.alertRecovery}
        onChange={(on) => set('alertRecovery', on)}
      />
      <CheckboxField
        name="alerts.notifyDegraded"
        label="Alert when it becomes degraded"
        checked={v.alertDegraded}
        onChange={(on) => set('alertDegraded', on)}
      />
      <CheckboxField
        name="alerts.notifyRegional"
        label="Alert when it fails in some locations (Regional), and when that ends"
        checked={v.alertRegional}
        onChange={(on) => set('alertRegional', on)}
      />
    </fieldset>
  );
}
