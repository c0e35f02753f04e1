import { Field } from '../../../../components/ui/Field';
import { Notice } from '../../../../components/ui/Notice';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

export function TlsTargetFields({ errorFor, text }: SectionProps) {
  return (
    <div className="form__row form__row--hostport">
      <Field
        name="host"
        label="Host"
        error={errorFor('host')}
        hint="A host name or IP address, e.g. shop.example.com or 10.0.0.5"
      >
        {(p) => (
          <input
            {...p}
            className="input mono"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            {...text('host')}
          />
        )}
      </Field>
      <Field name="port" label="Port" error={errorFor('port')} hint="443 if empty">
        {(p) => (
          <input {...p} className="input" inputMode="numeric" placeholder="443" {...text('port')} />
        )}
      </Field>
    </div>
  );
}

export function TlsCertificateSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Certificate</legend>
      <p className="form__note">
        Down when the certificate has expired, is for another name or is not signed by a trusted
        authority; degraded when it expires within the warning days.
      </p>
      <div className="form__grid">
        <Field
          name="servername"
          label="Name on the certificate"
          optional
          error={errorFor('servername')}
          hint="Sent as SNI and checked against the certificate. Empty: the host."
        >
          {(p) => (
            <input
              {...p}
              className="input mono"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              placeholder={v.host.trim() || 'The host'}
              {...text('servername')}
            />
          )}
        </Field>
        <Field
          name="warnDays"
          label="Warn days before expiry"
          error={errorFor('warnDays')}
          hint="1 to 365; 14 by default."
        >
          {(p) => <input {...p} className="input" inputMode="numeric" {...text('warnDays')} />}
        </Field>
      </div>
      <Field
        name="ignoreTrust"
        label="Accept certificates from any issuer (self-signed, private CA)"
        inline
        error={errorFor('ignoreTrust')}
      >
        {(p) => (
          <input
            {...p}
            type="checkbox"
            checked={v.ignoreTrust}
            onChange={(e) => set('ignoreTrust', e.target.checked)}
          />
        )}
      </Field>
      {v.ignoreTrust && (
        <Notice tone="warning" title="Who issued the certificate will not be checked">
          Expiry and the name are still checked. Use this for internal hosts with self-signed
          certificates.
        </Notice>
      )}
      <div className="form__grid">
        <DegradedField {...props} hint="Handshakes slower than this count as degraded." />
      </div>
    </fieldset>
  );
}
