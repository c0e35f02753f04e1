import type { BodyType, HttpMethod, IpFamily } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { Notice } from '../../../../components/ui/Notice';
import { AssertionsEditor } from './AssertionsEditor';
import { CheckboxField, SelectField, TextInputField } from './controls';
import type { FormValues } from './form-values';
import { HeadersEditor } from './HeadersEditor';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

const methods: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const bodyTypes: readonly { value: BodyType; label: string; hint: string }[] = [
  { value: 'none', label: 'No body', hint: '' },
  {
    value: 'json',
    label: 'JSON',
    hint: 'Must be valid JSON; sent as application/json unless a Content-Type header says otherwise.',
  },
  {
    value: 'form',
    label: 'Form',
    hint: 'URL-encoded name=value pairs joined by &, e.g. user=ann&remember=1; sent as application/x-www-form-urlencoded.',
  },
  {
    value: 'raw',
    label: 'Raw text',
    hint: 'Sent exactly as typed; add a Content-Type header to match.',
  },
];

const authKinds: readonly { value: FormValues['authKind']; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'basic', label: 'Basic (user name and password)' },
  { value: 'bearer', label: 'Bearer token' },
];

const ipFamilies: readonly { value: IpFamily; label: string }[] = [
  { value: 'auto', label: 'Automatic (IPv6 or IPv4)' },
  { value: 'ipv4', label: 'IPv4 only' },
  { value: 'ipv6', label: 'IPv6 only' },
];

function BodyFields({ v, set, errorFor, text }: SectionProps) {
  const type = bodyTypes.find((t) => t.value === v.bodyType) ?? bodyTypes[0]!;
  return (
    <div className="form__stack">
      <SelectField
        name="bodyType"
        label="Request body"
        error={errorFor('bodyType')}
        value={v.bodyType}
        options={bodyTypes}
        onChange={(t) => set('bodyType', t)}
      />
      {v.bodyType !== 'none' && (
        <Field name="body" label={`${type.label} body`} error={errorFor('body')} hint={type.hint}>
          {(p) => (
            <textarea {...p} className="input mono" rows={4} spellCheck={false} {...text('body')} />
          )}
        </Field>
      )}
    </div>
  );
}

function AuthFields({ v, set, errorFor, text }: SectionProps) {
  const saved = v.authSaved !== null && v.authSaved === v.authKind;
  const secretLabel = v.authKind === 'basic' ? 'Password' : 'Token';
  return (
    <div className="form__grid">
      <SelectField
        name="auth.kind"
        label="Authentication"
        error={errorFor('auth.kind')}
        value={v.authKind}
        options={authKinds}
        onChange={(k) => set('authKind', k, 'auth.kind')}
      />
      {v.authKind === 'basic' && (
        <Field name="auth.username" label="User name" error={errorFor('auth.username')}>
          {(p) => (
            <input
              {...p}
              className="input"
              autoComplete="off"
              spellCheck={false}
              {...text('authUsername')}
              onChange={(e) => set('authUsername', e.target.value, 'auth.username')}
            />
          )}
        </Field>
      )}
      {v.authKind !== 'none' && (
        <TextInputField
          name="auth.secret"
          label={secretLabel}
          optional={v.authKind === 'basic' && !saved}
          error={errorFor('auth.secret')}
          hint={
            saved
              ? `Saved — leave empty to keep the saved ${secretLabel.toLowerCase()}.`
              : 'Stored encrypted and never shown again.'
          }
          kind="password"
          input={{
            placeholder: saved ? '••••••••' : '',
            value: v.authSecret,
            onChange: (e) => set('authSecret', e.target.value, 'auth.secret'),
          }}
        />
      )}
    </div>
  );
}

export function HttpTargetFields({ v, set, errorFor, text }: SectionProps) {
  return (
    <div className="form__row form__row--url">
      <SelectField
        name="method"
        label="Method"
        error={errorFor('method')}
        value={v.method}
        options={methods}
        onChange={(m) => set('method', m)}
      />
      <TextInputField
        name="url"
        label="URL"
        error={errorFor('url')}
        hint="A full http:// or https:// address, e.g. https://example.com/health"
        kind="url"
        input={text('url')}
      />
    </div>
  );
}

export function RequestSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Request</legend>
      <HeadersEditor
        rows={v.headers}
        errorFor={errorFor}
        onChange={(rows, key) => set('headers', rows, key)}
      />
      <BodyFields {...props} />
      <AuthFields {...props} />
      <div className="form__grid">
        <CheckboxField
          name="followRedirects"
          label="Follow redirects"
          error={errorFor('followRedirects')}
          checked={v.followRedirects}
          onChange={(checked) => set('followRedirects', checked)}
        />
        <TextInputField
          name="maxRedirects"
          label="Maximum redirects"
          error={errorFor('maxRedirects')}
          kind="number"
          input={{ disabled: !v.followRedirects, ...text('maxRedirects') }}
        />
      </div>
      <SelectField
        name="ipFamily"
        label="IP version"
        error={errorFor('ipFamily')}
        hint="Automatic tries every address of the host name, IPv6 first when the resolver says so."
        value={v.ipFamily}
        options={ipFamilies}
        onChange={(f) => set('ipFamily', f)}
      />
      <CheckboxField
        name="ignoreTls"
        label="Ignore TLS certificate errors"
        error={errorFor('ignoreTls')}
        checked={v.ignoreTls}
        onChange={(checked) => set('ignoreTls', checked)}
      />
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
        <TextInputField
          name="acceptedStatusCodes"
          label="Accepted status codes"
          error={errorFor('acceptedStatusCodes')}
          hint="Codes or ranges, comma-separated: 200-299, 301"
          kind="code"
          input={text('acceptedStatusCodes')}
        />
        <DegradedField {...props} />
      </div>
      <TextInputField
        name="maxBodyBytes"
        label="Read up to (bytes)"
        error={errorFor('maxBodyBytes')}
        hint="How much of the body assertions look at: 1 KiB to 10 MiB (10485760); default 1 MiB."
        kind="number"
        input={text('maxBodyBytes')}
      />
      <AssertionsEditor
        rows={v.assertions}
        errorFor={errorFor}
        onChange={(rows, key) => set('assertions', rows, key)}
      />
    </fieldset>
  );
}
