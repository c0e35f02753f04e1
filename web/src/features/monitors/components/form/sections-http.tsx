import type { BodyType, HttpMethod, IpFamily } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { Notice } from '../../../../components/ui/Notice';
import { AssertionsEditor } from './AssertionsEditor';
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

const ipFamilies: readonly { value: IpFamily; label: string }[] = [
  { value: 'auto', label: 'Automatic (IPv6 or IPv4)' },
  { value: 'ipv4', label: 'IPv4 only' },
  { value: 'ipv6', label: 'IPv6 only' },
];

function BodyFields({ v, set, errorFor, text }: SectionProps) {
  const type = bodyTypes.find((t) => t.value === v.bodyType) ?? bodyTypes[0]!;
  return (
    <div className="form__stack">
      <Field name="bodyType" label="Request body" error={errorFor('bodyType')}>
        {(p) => (
          <select
            {...p}
            className="input select"
            value={v.bodyType}
            onChange={(e) => set('bodyType', e.target.value as BodyType)}
          >
            {bodyTypes.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        )}
      </Field>
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
      <Field name="auth.kind" label="Authentication" error={errorFor('auth.kind')}>
        {(p) => (
          <select
            {...p}
            className="input select"
            value={v.authKind}
            onChange={(e) => set('authKind', e.target.value as FormValues['authKind'], 'auth.kind')}
          >
            <option value="none">None</option>
            <option value="basic">Basic (user name and password)</option>
            <option value="bearer">Bearer token</option>
          </select>
        )}
      </Field>
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
        <Field
          name="auth.secret"
          label={secretLabel}
          optional={v.authKind === 'basic' && !saved}
          error={errorFor('auth.secret')}
          hint={
            saved
              ? `Saved — leave empty to keep the saved ${secretLabel.toLowerCase()}.`
              : 'Stored encrypted and never shown again.'
          }
        >
          {(p) => (
            <input
              {...p}
              className="input mono"
              type="password"
              autoComplete="new-password"
              placeholder={saved ? '••••••••' : ''}
              value={v.authSecret}
              onChange={(e) => set('authSecret', e.target.value, 'auth.secret')}
            />
          )}
        </Field>
      )}
    </div>
  );
}

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
      <BodyFields v={v} set={set} errorFor={errorFor} text={text} />
      <AuthFields v={v} set={set} errorFor={errorFor} text={text} />
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
        name="ipFamily"
        label="IP version"
        error={errorFor('ipFamily')}
        hint="Automatic tries every address of the host name, IPv6 first when the resolver says so."
      >
        {(p) => (
          <select
            {...p}
            className="input select"
            value={v.ipFamily}
            onChange={(e) => set('ipFamily', e.target.value as IpFamily)}
          >
            {ipFamilies.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        )}
      </Field>
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
      <Field
        name="maxBodyBytes"
        label="Read up to (bytes)"
        error={errorFor('maxBodyBytes')}
        hint="How much of the body assertions look at: 1 KiB to 10 MiB (10485760); default 1 MiB."
      >
        {(p) => <input {...p} className="input" inputMode="numeric" {...text('maxBodyBytes')} />}
      </Field>
      <AssertionsEditor
        rows={v.assertions}
        errorFor={errorFor}
        onChange={(rows, key) => set('assertions', rows, key)}
      />
    </fieldset>
  );
}
