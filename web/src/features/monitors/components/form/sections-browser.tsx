import type { BrowserViewport, BrowserWaitFor } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { HeadersEditor } from './HeadersEditor';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

const viewports: { value: BrowserViewport; label: string }[] = [
  { value: 'desktop', label: 'Desktop' },
  { value: 'phone', label: 'Phone' },
];

const waits: { value: BrowserWaitFor; label: string }[] = [
  { value: 'load', label: 'The load event' },
  { value: 'networkidle', label: 'The network going quiet' },
  { value: 'selector', label: 'An element showing' },
];

export function BrowserTargetFields({ v, set, errorFor, text }: SectionProps) {
  return (
    <div className="form__row form__row--url">
      <Field name="viewport" label="Viewport" error={errorFor('viewport')}>
        {(p) => (
          <select
            {...p}
            className="input select"
            value={v.viewport}
            onChange={(e) => set('viewport', e.target.value as BrowserViewport)}
          >
            {viewports.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        name="url"
        label="Page URL"
        error={errorFor('url')}
        hint="Loaded in Chromium like a visitor would (desktop 1280 × 800, phone 390 × 844), e.g. https://shop.example.com/"
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
  );
}

export function BrowserPageSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Page</legend>
      <div className="form__grid">
        <Field name="waitFor" label="Delivered once" error={errorFor('waitFor')}>
          {(p) => (
            <select
              {...p}
              className="input select"
              value={v.waitFor}
              onChange={(e) => set('waitFor', e.target.value as BrowserWaitFor, 'waitSelector')}
            >
              {waits.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {v.waitFor === 'selector' && (
          <Field
            name="waitSelector"
            label="Element to wait for"
            error={errorFor('waitSelector')}
            hint="A CSS selector that must become visible, e.g. #app .ready"
          >
            {(p) => (
              <input
                {...p}
                className="input mono"
                autoComplete="off"
                spellCheck={false}
                {...text('waitSelector')}
              />
            )}
          </Field>
        )}
      </div>
      <div className="form__grid">
        <Field
          name="requiredText"
          label="Text the page must show"
          optional
          error={errorFor('requiredText')}
          hint="Matched against the visible text, case as typed."
        >
          {(p) => <input {...p} className="input" autoComplete="off" {...text('requiredText')} />}
        </Field>
        <Field
          name="requiredSelector"
          label="Element the page must have"
          optional
          error={errorFor('requiredSelector')}
          hint="A CSS selector, e.g. button.add-to-basket"
        >
          {(p) => (
            <input
              {...p}
              className="input mono"
              autoComplete="off"
              spellCheck={false}
              {...text('requiredSelector')}
            />
          )}
        </Field>
      </div>
      <div className="form__grid">
        <DegradedField {...props} hint="A slower load (or wait condition) counts as degraded." />
        <Field
          name="lcpThresholdMs"
          label="Degraded when LCP is above (ms)"
          optional
          error={errorFor('lcpThresholdMs')}
          hint="Largest Contentful Paint; 2,500 ms is Google’s “good” limit."
        >
          {(p) => (
            <input
              {...p}
              className="input"
              inputMode="numeric"
              placeholder="No threshold"
              {...text('lcpThresholdMs')}
            />
          )}
        </Field>
      </div>
      <Field
        name="failOnJsError"
        label="An uncaught JavaScript error takes the monitor down"
        inline
        error={errorFor('failOnJsError')}
      >
        {(p) => (
          <input
            {...p}
            type="checkbox"
            checked={v.failOnJsError}
            onChange={(e) => set('failOnJsError', e.target.checked)}
          />
        )}
      </Field>
      <p className="form__note">
        A failed script, stylesheet or image marks the check degraded; console errors are listed
        either way.
      </p>
    </fieldset>
  );
}

export function BrowserAccessSection({ v, set, errorFor, text }: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Access</legend>
      <Field name="basicAuthEnabled" label="The site needs a user name and password" inline>
        {(p) => (
          <input
            {...p}
            type="checkbox"
            checked={v.basicAuthEnabled}
            onChange={(e) => set('basicAuthEnabled', e.target.checked, 'basicAuth.username')}
          />
        )}
      </Field>
      {v.basicAuthEnabled && (
        <div className="form__grid form__nested">
          <Field name="basicAuth.username" label="User name" error={errorFor('basicAuth.username')}>
            {(p) => (
              <input
                {...p}
                className="input"
                autoComplete="off"
                value={v.basicAuthUsername}
                onChange={(e) => set('basicAuthUsername', e.target.value, 'basicAuth.username')}
              />
            )}
          </Field>
          <Field
            name="basicAuth.password"
            label="Password"
            optional={!v.basicAuthSaved}
            error={errorFor('basicAuth.password')}
            hint={
              v.basicAuthSaved
                ? 'Saved — leave empty to keep the saved password.'
                : 'Stored encrypted and never shown again.'
            }
          >
            {(p) => (
              <input
                {...p}
                className="input mono"
                type="password"
                autoComplete="new-password"
                placeholder={v.basicAuthSaved ? '••••••••' : ''}
                {...text('basicAuthPassword')}
                onChange={(e) => set('basicAuthPassword', e.target.value, 'basicAuth.password')}
              />
            )}
          </Field>
        </div>
      )}
      <HeadersEditor
        rows={v.headers}
        errorFor={errorFor}
        onChange={(rows, key) => set('headers', rows, key)}
      />
    </fieldset>
  );
}
