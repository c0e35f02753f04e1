import type { ReactNode } from 'react';
import { Field } from '../../../../components/ui/Field';
import { formatSeconds } from '../../../../lib/format';
import { TextInputField } from './controls';
import type { SectionProps } from './section-props';

/** " Now: 5 min." after a seconds hint, so the number typed reads as a duration. */
export function secondsNow(text: string): string {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? ` Now: ${formatSeconds(n)}.` : '';
}

interface BasicsProps extends SectionProps {
  /** The type choice, on create only. */
  typeChoice: ReactNode;
  /** The type's target fields (URL, host and port…). */
  target: ReactNode;
}

export function BasicsSection({ errorFor, text, typeChoice, target }: BasicsProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">What to check</legend>
      {typeChoice}
      <TextInputField
        name="name"
        label="Name"
        error={errorFor('name')}
        kind="text"
        input={text('name')}
      />
      {target}
    </fieldset>
  );
}

export function ScheduleSection({ v, errorFor, text }: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Schedule</legend>
      <div className="form__grid form__grid--narrow">
        <TextInputField
          name="interval"
          label="Interval (seconds)"
          error={errorFor('interval')}
          hint={`${v.type === 'browser' ? '60' : '10'} to 86,400.${secondsNow(v.interval)}`}
          kind="number"
          input={text('interval')}
        />
        <TextInputField
          name="timeout"
          label="Timeout (seconds)"
          error={errorFor('timeout')}
          hint="1 to 120, shorter than the interval."
          kind="number"
          input={text('timeout')}
        />
        <TextInputField
          name="retries"
          label="Retries before down"
          error={errorFor('retries')}
          hint="Failed checks confirmed again before alerting; 0 to 10."
          kind="number"
          input={text('retries')}
        />
        <TextInputField
          name="retryInterval"
          label="Retry every (seconds)"
          error={errorFor('retryInterval')}
          hint="Optional. While confirming a failure; empty uses the interval."
          kind="number"
          input={{ placeholder: 'Same as interval', ...text('retryInterval') }}
        />
      </div>
    </fieldset>
  );
}

export function DetailsSection({ errorFor, text }: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Details</legend>
      <TextInputField
        name="tags"
        label="Tags"
        optional
        error={errorFor('tags')}
        hint="Comma-separated, e.g. production, api"
        kind="text"
        input={text('tags')}
      />
      <Field name="description" label="Description" optional error={errorFor('description')}>
        {(p) => <textarea {...p} className="input" rows={2} {...text('description')} />}
      </Field>
    </fieldset>
  );
}

/** The latency above which an up check counts as degraded; every type has it. */
export function DegradedField({ errorFor, text, hint }: SectionProps & { hint?: string }) {
  return (
    <TextInputField
      name="degradedThresholdMs"
      label="Degraded above (ms)"
      optional
      error={errorFor('degradedThresholdMs')}
      hint={hint ?? 'Slower responses count as degraded.'}
      kind="number"
      input={{ placeholder: 'No threshold', ...text('degradedThresholdMs') }}
    />
  );
}
