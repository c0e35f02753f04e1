import { TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField, secondsNow } from './sections-general';

/** Where a push monitor's target would be: there is none to type; the job calls in. */
export function PushTargetNote() {
  return (
    <p className="form__note" data-testid="push-note">
      Nothing is fetched: your job (a cron entry, a backup script) calls the monitor’s push URL each
      time it runs. Pagewatch makes the URL when you create the monitor and shows it on the
      monitor’s page, with examples.
    </p>
  );
}

/** The schedule of a push monitor: how often pings are expected and how late they may be. */
export function PushScheduleSection(props: SectionProps) {
  const { v, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Schedule</legend>
      <div className="form__grid form__grid--narrow">
        <TextInputField
          name="interval"
          label="Expected every"
          error={errorFor('interval')}
          hint={`Seconds between runs of the job, 10 to 86,400.${secondsNow(v.interval)}`}
          kind="number"
          input={text('interval')}
        />
        <TextInputField
          name="graceSeconds"
          label="Grace period (seconds)"
          error={errorFor('graceSeconds')}
          hint={`How late a ping may be before it counts as missed; 0 to 86,400.${secondsNow(v.graceSeconds)}`}
          kind="number"
          input={text('graceSeconds')}
        />
        <TextInputField
          name="retries"
          label="Misses before down"
          error={errorFor('retries')}
          hint="Missed or failed runs in a row before it counts as down; 0 to 10."
          kind="number"
          input={text('retries')}
        />
        <TextInputField
          name="retryInterval"
          label="Retry every (seconds)"
          error={errorFor('retryInterval')}
          hint="Optional. After a miss, when to look again; empty uses the expected interval."
          kind="number"
          input={{ placeholder: 'Same as expected', ...text('retryInterval') }}
        />
        <DegradedField
          {...props}
          hint="Runs that report a longer duration (ping=, or /start then success) count as degraded."
        />
      </div>
    </fieldset>
  );
}
