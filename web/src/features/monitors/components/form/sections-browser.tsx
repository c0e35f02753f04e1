import type { BrowserViewport, BrowserWaitFor } from '@pagewatch/contract';
import { CheckboxField, SelectField, TextInputField } from './controls';
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
      <SelectField
        name="viewport"
        label="Viewport"
        error={errorFor('viewport')}
        value={v.viewport}
        options={viewports}
        onChange={(o) => set('viewport', o)}
      />
      <TextInputField
        name="url"
        label="Page URL"
        error={errorFor('url')}
        hint="Loaded in Chromium like a visitor would (desktop 1280 × 800, phone 390 × 844), e.g. https://shop.example.com/"
        kind="url"
        input={text('url')}
      />
    </div>
  );
}

export function BrowserPageSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Page</legend>
      <div className="form__grid">
        <SelectField
          name="waitFor"
          label="Delivered once"
          error={errorFor('waitFor')}
          value={v.waitFor}
          options={waits}
          onChange={(o) => set('waitFor', o, 'waitSelector')}
        />
        {v.waitFor === 'selector' && (
          <TextInputField
            name="waitSelector"
            label="Element to wait for"
            error={errorFor('waitSelector')}
            hint="A CSS selector that must become visible, e.g. #app .ready"
            kind="code"
            input={text('waitSelector')}
          />
        )}
      </div>
      <div className="form__grid">
        <TextInputField
          name="requiredText"
          label="Text the page must show"
          optional
          error={errorFor('requiredText')}
          hint="Matched against the visible text, case as typed."
          kind="text"
          input={text('requiredText')}
        />
        <TextInputField
          name="requiredSelector"
          label="Element the page must have"
          optional
          error={errorFor('requiredSelector')}
          hint="A CSS selector, e.g. button.add-to-basket"
          kind="code"
          input={text('requiredSelector')}
        />
      </div>
      <div className="form__grid">
        <DegradedField {...props} hint="A slower load (or wait condition) counts as degraded." />
        <TextInputField
          name="lcpThresholdMs"
          label="Degraded when LCP is above (ms)"
          optional
          error={errorFor('lcpThresholdMs')}
          hint="Largest Contentful Paint; 2,500 ms is Google’s “good” limit."
          kind="number"
          input={{ placeholder: 'No threshold', ...text('lcpThresholdMs') }}
        />
      </div>
      <CheckboxField
        name="failOnJsError"
        label="An uncaught JavaScript error takes the monitor down"
        error={errorFor('failOnJsError')}
        checked={v.failOnJsError}
        onChange={(checked) => set('failOnJsError', checked)}
      />
      <p className="form__note">
        A failed script, stylesheet or image marks the check degraded; console errors are listed
        either way.
      </p>
    </fieldset>
  );
}

export function BrowserAccessSection({ v, set, errorFor }: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Access</legend>
      <CheckboxField
        name="basicAuthEnabled"
        label="The site needs a user name and password"
        checked={v.basicAuthEnabled}
        onChange={(checked) => set('basicAuthEnabled', checked, 'basicAuth.username')}
      />
      {v.basicAuthEnabled && (
        <div className="form__grid form__nested">
          <TextInputField
            name="basicAuth.username"
            label="User name"
            error={errorFor('basicAuth.username')}
            kind="text"
            input={{
              value: v.basicAuthUsername,
              onChange: (e) => set('basicAuthUsername', e.target.value, 'basicAuth.username'),
            }}
          />
          <TextInputField
            name="basicAuth.password"
            label="Password"
            optional={!v.basicAuthSaved}
            error={errorFor('basicAuth.password')}
            hint={
              v.basicAuthSaved
                ? 'Saved — leave empty to keep the saved password.'
                : 'Stored encrypted and never shown again.'
            }
            kind="password"
            input={{
              placeholder: v.basicAuthSaved ? '••••••••' : '',
              value: v.basicAuthPassword,
              onChange: (e) => set('basicAuthPassword', e.target.value, 'basicAuth.password'),
            }}
          />
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
