import type { HttpMethod } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { formatSeconds } from '../../../../lib/format';
import type { SectionProps } from './section-props';

const methods: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function secondsHint(text: string, base: string): string {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? `${base} Now: ${formatSeconds(n)}.` : base;
}

export function BasicsSection({ v, set, errorFor, text }: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">What to check</legend>
      <Field name="name" label="Name" error={errorFor('name')}>
        {(p) => <input {...p} className="input" autoComplete="off" {...text('name')} />}
      </Field>
      <div className="form__row form__row--url">
        <Field name="method" label="Method" error={errorFor('method')}>
          {(p) => (
            <select
              {...p}
              className="input select"
              value={v.method}
              onChange={(e) => set('method', e.target.value as HttpMethod)}
            >
              {methods.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          )}
        </Field>
        <Field
          name="url"
          label="URL"
          error={errorFor('url')}
          hint="A full http:// or https:// address, e.g. https://example.com/health"
        >
          {(p) => (
            <input
              {...p}
              className="input mono"
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://"
              {...text('url')}
            />
          )}
        </Field>
      </div>
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
          hint={secondsHint(v.interval, '10 to 86,400.')}
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
