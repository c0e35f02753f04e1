import { CheckboxField, TextInputField } from './controls';
import type { SectionProps } from './section-props';

/** A domain monitor's target: the host name whose registration is watched. */
export function DomainTargetFields({ errorFor, text }: SectionProps) {
  return (
    <TextInputField
      name="domain"
      label="Domain"
      error={errorFor('domain')}
      hint="A host name; its registered domain is looked up, e.g. shop.example.co.uk → example.co.uk."
      kind="host"
      input={{ placeholder: 'example.com', ...text('domain') }}
    />
  );
}

function WarnDaysField({ errorFor, text, errorKey }: SectionProps & { errorKey: string }) {
  return (
    <TextInputField
      name={errorKey}
      label="Warn days before expiry"
      error={errorFor(errorKey)}
      hint="1 to 365; 30 by default, time enough to renew or transfer."
      kind="number"
      input={text('domainWarnDays')}
    />
  );
}

const RDAP_NOTE =
  'The registry is asked through RDAP (the registry named for the TLD in IANA’s bootstrap file), at most about twice a day per domain whatever the interval; between lookups the last answer is used.';

export function DomainRegistrationSection(props: SectionProps) {
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Registration</legend>
      <p className="form__note">
        Down when the registration has expired or the registry has no such domain; degraded when it
        expires within the warning days, or when the registry cannot be asked. {RDAP_NOTE}
      </p>
      <div className="form__grid form__grid--narrow">
        <WarnDaysField {...props} errorKey="warnDays" />
      </div>
    </fieldset>
  );
}

/** The HTTP monitor's option: watch the URL's registered domain too. */
export function HttpDomainExpirySection(props: SectionProps) {
  const { v, set, errorFor } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Domain registration</legend>
      <CheckboxField
        name="httpDomainExpiry"
        label="Also warn before the URL’s domain registration expires"
        hint={RDAP_NOTE}
        error={errorFor('domainExpiry')}
        checked={v.httpDomainExpiry}
        onChange={(checked) => set('httpDomainExpiry', checked)}
      />
      {v.httpDomainExpiry && (
        <div className="form__grid form__grid--narrow">
          <WarnDaysField {...props} errorKey="domainExpiry.warnDays" />
        </div>
      )}
    </fieldset>
  );
}
