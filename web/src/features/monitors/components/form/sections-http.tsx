import type { HttpMethod } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { Notice } from '../../../../components/ui/Notice';
import { HeadersEditor } from './HeadersEditor';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

const methods: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function HttpTargetFields({ v, set, errorFor, text }: SectionProps) {
  return (
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
  );
}

export function RequestSection({ v, set, errorFor, text }: SectionProps) {
  return (
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
  );
}

export function ResponseSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
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
        <DegradedField {...props} />
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
  );
}
