import type { ReactNode } from 'react';
import { Field } from '../../../../components/ui/Field';
import { formatSeconds } from '../../../../lib/format';
import type { SectionProps } from './section-props';

function secondsHint(text: string, base: string): string {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? `${base} Now: ${formatSeconds(n)}.` : base;
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
      <Field name="name" label="Name" error={errorFor('name')}>
        {(p) => <input {...p} className="input" autoComplete="off" {...text('name')} />}
      </Field>
      {target}
    </fieldset>
  );
}

export function ScheduleSection({ v, errorFor, text }: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Schedule</legend>
      <div className="form__grid form__grid--narrow">
        <Field
          name="interval"
          label="Interval (seconds)"
          error={errorFor('interval')}
          hint={secondsHint(v.interval, v.type === 'browser' ? '60 to 86,400.' : '10 to 86,400.')}
        >
          {(p) => <input {...p} className="input" inputMode="numeric" {...text('interval')} />}
        </Field>
        <Field
          name="timeout"
          label="Timeout (seconds)"
          error={errorFor('timeout')}
          hint="1 to 120, shorter than the interval."
        >
          {(p) => <input {...p} className="input" inputMode="numeric" {...text('timeout')} />}
        </Field>
        <Field
          name="retries"
          label="Retries before down"
          error={errorFor('retries')}
          hint="Failed checks confirmed again before alerting; 0 to 10."
        >
          {(p) => <input {...p} className="input" inputMode="numeric" {...text('retries')} />}
        </Field>
        <Field
          name="retryInterval"
          label="Retry every (seconds)"
          error={errorFor('retryInterval')}
          hint="Optional. While confirming a failure; empty uses the interval."
        >
          {(p) => (
            <input
              {...p}
              className="input"
              inputMode="numeric"
              placeholder="Same as interval"
              {...text('retryInterval')}
            />
          )}
        </Field>
      </div>
    </fieldset>
  );
}

export function DetailsSection({ errorFor, text }: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Details</legend>
      <Field
        name="tags"
        label="Tags"
        optional
        error={errorFor('tags')}
        hint="Comma-separated, e.g. production, api"
      >
        {(p) => <input {...p} className="input" autoComplete="off" {...text('tags')} />}
      </Field>
      <Field name="description" label="Description" optional error={errorFor('description')}>
        {(p) => <textarea {...p} className="input" rows={2} {...text('description')} />}
      </Field>
    </fieldset>
  );
}

/** The latency above which an up check counts as degraded; every type has it. */
export function DegradedField({ errorFor, text, hint }: SectionProps & { hint?: string }) {
  return (
    <Field
      name="degradedThresholdMs"
      label="Degraded above (ms)"
      optional
      error={errorFor('degradedThresholdMs')}
      hint={hint ?? 'Slower responses count as degraded.'}
    >
      {(p) => (
        <input
          {...p}
          className="input"
          inputMode="numeric"
          placeholder="No threshold"
          {...text('degradedThresholdMs')}
        />
      )}
    </Field>
  );
}
