import { Notice } from '../../../../components/ui/Notice';
import { CheckboxField, HostPortFields, TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

export function TlsTargetFields({ errorFor, text }: SectionProps) {
  return (
    <HostPortFields
      errorFor={errorFor}
      host={text('host')}
      port={{ ...text('port'), placeholder: '443' }}
      hostHint="A host name or IP address, e.g. shop.example.com or 10.0.0.5"
      portHint="443 if empty"
    />
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
        <TextInputField
          name="servername"
          label="Name on the certificate"
          optional
          error={errorFor('servername')}
          hint="Sent as SNI and checked against the certificate. Empty: the host."
          kind="host"
          input={{ placeholder: v.host.trim() || 'The host', ...text('servername') }}
        />
        <TextInputField
          name="warnDays"
          label="Warn days before expiry"
          error={errorFor('warnDays')}
          hint="1 to 365; 14 by default."
          kind="number"
          input={text('warnDays')}
        />
      </div>
      <CheckboxField
        name="ignoreTrust"
        label="Accept certificates from any issuer (self-signed, private CA)"
        error={errorFor('ignoreTrust')}
        checked={v.ignoreTrust}
        onChange={(checked) => set('ignoreTrust', checked)}
      />
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
