import type { HttpMethod, Monitor, MonitorDraft } from '@pagewatch/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import { Button, ButtonLink } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { formatSeconds, plural } from '../../../../lib/format';
import type { FormValues } from './form-values';
import { HeadersEditor } from './HeadersEditor';
import { useMonitorForm } from './useMonitorForm';

const methods: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const knownFields = new Set([
  'name',
  'url',
  'method',
  'interval',
  'timeout',
  'retries',
  'retryInterval',
  'degradedThresholdMs',
  'headers',
  'body',
  'acceptedStatusCodes',
  'followRedirects',
  'maxRedirects',
  'keyword.value',
  'keyword.mode',
  'ignoreTls',
  'tags',
  'description',
]);
const isKnown = (key: string) => knownFields.has(key) || key.startsWith('headers.');

function secondsHint(text: string, base: string): string {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? `${base} Now: ${formatSeconds(n)}.` : base;
}

/** Fields that hold free text (not a choice from a list). */
type TextKey = {
  [K in keyof FormValues]: string extends FormValues[K] ? K : never;
}[keyof FormValues];

interface MonitorFormProps {
  mode: 'create' | 'edit';
  initial: FormValues;
  mutation: UseMutationResult<Monitor, Error, MonitorDraft>;
  cancelTo: string;
  onSaved: (monitor: Monitor) => void;
}

export function MonitorForm({ mode, initial, mutation, cancelTo, onSaved }: MonitorFormProps) {
  const form = useMonitorForm(initial, mutation, onSaved);
  const { values: v, set, errorFor } = form;
  const orphans = Object.entries(form.serverErrors).filter(([key]) => !isKnown(key));
  const fieldErrorCount = Object.keys(form.shownErrors).filter(isKnown).length;
  const otherError =
    mutation.error && !(isApiError(mutation.error) && mutation.error.fieldErrors.length > 0)
      ? mutation.error
      : null;
  const text = (key: TextKey) => ({
    value: v[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  return (
    <form
      ref={form.formRef}
      className="form"
      noValidate
      onSubmit={form.onSubmit}
      onBlur={form.onBlur}
    >
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
            optional
            error={errorFor('retryInterval')}
            hint="While confirming a failure. Empty: the interval."
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

      <fieldset className="form__section">
        <legend className="form__legend">Request</legend>
        <HeadersEditor
          rows={v.headers}
          errorFor={errorFor}
          onChange={(rows, key) => set('headers', rows, key)}
        />
        <Field
          name="body"
          label="Request body"
          optional
          error={errorFor('body')}
          hint="Sent as is; set a Content-Type header to match."
        >
          {(p) => (
            <textarea {...p} className="input mono" rows={3} spellCheck={false} {...text('body')} />
          )}
        </Field>
        <div className="form__grid">
          <Field
            name="followRedirects"
            label="Follow redirects"
            inline
            error={errorFor('followRedirects')}
          >
            {(p) => (
              <input
                {...p}
                type="checkbox"
                checked={v.followRedirects}
                onChange={(e) => set('followRedirects', e.target.checked)}
              />
            )}
          </Field>
          <Field name="maxRedirects" label="Maximum redirects" error={errorFor('maxRedirects')}>
            {(p) => (
              <input
                {...p}
                className="input"
                inputMode="numeric"
                disabled={!v.followRedirects}
                {...text('maxRedirects')}
              />
            )}
          </Field>
        </div>
        <Field
          name="ignoreTls"
          label="Ignore TLS certificate errors"
          inline
          error={errorFor('ignoreTls')}
        >
          {(p) => (
            <input
              {...p}
              type="checkbox"
              checked={v.ignoreTls}
              onChange={(e) => set('ignoreTls', e.target.checked)}
            />
          )}
        </Field>
        {v.ignoreTls && (
          <Notice tone="warning" title="Certificate problems will not be reported">
            An expired, self-signed or forged certificate will still count as up. Use this only for
            internal hosts you trust.
          </Notice>
        )}
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">Response</legend>
        <div className="form__grid">
          <Field
            name="acceptedStatusCodes"
            label="Accepted status codes"
            error={errorFor('acceptedStatusCodes')}
            hint="Codes or ranges, comma-separated: 200-299, 301"
          >
            {(p) => (
              <input
                {...p}
                className="input mono"
                autoComplete="off"
                spellCheck={false}
                {...text('acceptedStatusCodes')}
              />
            )}
          </Field>
          <Field
            name="degradedThresholdMs"
            label="Degraded above (ms)"
            optional
            error={errorFor('degradedThresholdMs')}
            hint="Slower responses count as degraded."
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
        </div>
        <Field name="keywordEnabled" label="Check the response body for a keyword" inline>
          {(p) => (
            <input
              {...p}
              type="checkbox"
              checked={v.keywordEnabled}
              onChange={(e) => set('keywordEnabled', e.target.checked, 'keyword.value')}
            />
          )}
        </Field>
        {v.keywordEnabled && (
          <div className="form__grid form__nested">
            <Field name="keyword.value" label="Keyword" error={errorFor('keyword.value')}>
              {(p) => (
                <input
                  {...p}
                  className="input mono"
                  autoComplete="off"
                  value={v.keywordValue}
                  onChange={(e) => set('keywordValue', e.target.value, 'keyword.value')}
                />
              )}
            </Field>
            <Field
              name="keyword.mode"
              label="The check passes when the body"
              error={errorFor('keyword.mode')}
            >
              {(p) => (
                <select
                  {...p}
                  className="input select"
                  value={v.keywordMode}
                  onChange={(e) =>
                    set('keywordMode', e.target.value as 'present' | 'absent', 'keyword.mode')
                  }
                >
                  <option value="present">contains the keyword</option>
                  <option value="absent">does not contain it</option>
                </select>
              )}
            </Field>
            <Field name="keywordCaseSensitive" label="Match case" inline>
              {(p) => (
                <input
                  {...p}
                  type="checkbox"
                  checked={v.keywordCaseSensitive}
                  onChange={(e) => set('keywordCaseSensitive', e.target.checked)}
                />
              )}
            </Field>
          </div>
        )}
      </fieldset>

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

      <div className="form__footer">
        {form.submitted && fieldErrorCount > 0 && (
          <p className="form__summary" role="alert">
            Fix {plural(fieldErrorCount, 'field')} marked above to continue.
          </p>
        )}
        {orphans.map(([key, message]) => (
          <Notice key={key} tone="danger" live title="The server did not accept the monitor">
            {key ? `${key}: ${message}` : message}
          </Notice>
        ))}
        {otherError && <ErrorNotice error={otherError} />}
        <div className="form__buttons">
          <ButtonLink to={cancelTo} variant="ghost">
            Cancel
          </ButtonLink>
          <Button type="submit" variant="primary" busy={mutation.isPending}>
            {mode === 'create' ? 'Create monitor' : 'Save changes'}
          </Button>
        </div>
      </div>
    </form>
  );
}
