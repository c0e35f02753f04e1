import type { ComponentType } from 'react';
import type { MailSecurity, MqttMatch, MqttMode } from '@pagewatch/contract';
import { Notice } from '../../../../components/ui/Notice';
import { CheckboxField, HostPortFields, SelectField, TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

/**
 * The form of the message brokers (MQTT, RabbitMQ) and the mail server (SMTP). The brokers share
 * the database types' login and TLS values (user, write-only password, TLS, warning days).
 */
interface KindForm {
  Target: ComponentType<SectionProps>;
  sections: ComponentType<SectionProps>[];
}

interface BrokerText {
  product: string;
  port: number;
  tlsPort: number;
  /** The user name's hint: who the broker lets in. */
  userHint: string;
  userOptional: boolean;
}

function BrokerTarget(text: BrokerText) {
  return function BrokerTargetFields({ v, errorFor, text: bind }: SectionProps) {
    const port = v.dbTls ? text.tlsPort : text.port;
    return (
      <HostPortFields
        errorFor={errorFor}
        host={bind('host')}
        port={{ ...bind('port'), placeholder: String(port) }}
        hostHint="A host name or IP address, e.g. broker.internal or 10.0.0.5"
        portHint={`${port} if empty${v.dbTls ? ' (TLS)' : ''}`}
      />
    );
  };
}

/** Certificate rules of a TLS connection: warning days and whether any issuer is accepted. */
function CertificateFields({ v, set, errorFor, text }: SectionProps & { sentBefore: string }) {
  return (
    <div className="form__nested">
      <div className="form__grid">
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
          Expiry and the name are still checked.
        </Notice>
      )}
    </div>
  );
}

function BrokerLogin(text: BrokerText) {
  return function BrokerLoginSection(props: SectionProps) {
    const { v, set, errorFor } = props;
    return (
      <fieldset className="form__section">
        <legend className="form__legend">Login</legend>
        <div className="form__grid">
          <TextInputField
            name="username"
            label="User name"
            optional={text.userOptional}
            error={errorFor('username')}
            hint={text.userHint}
            kind="code"
            input={{
              autoComplete: 'off',
              value: v.dbUsername,
              onChange: (e) => set('dbUsername', e.target.value, 'username'),
            }}
          />
          <TextInputField
            name="password"
            label="Password"
            optional={!v.dbPasswordSaved}
            error={errorFor('password')}
            hint={
              v.dbPasswordSaved
                ? 'Saved — leave empty to keep the saved password.'
                : 'Stored encrypted and never shown again.'
            }
            kind="password"
            input={{
              placeholder: v.dbPasswordSaved ? '••••••••' : '',
              value: v.dbPassword,
              onChange: (e) => set('dbPassword', e.target.value, 'password'),
            }}
          />
        </div>
        <CheckboxField
          name="tls"
          label={`Connect over TLS (${text.product === 'MQTT' ? 'mqtts' : 'amqps'}, port ${text.tlsPort})`}
          hint="The certificate is checked like a TLS monitor's before the login is sent: expired, for another name or untrusted is down."
          error={errorFor('tls')}
          checked={v.dbTls}
          onChange={(checked) => set('dbTls', checked, 'tls')}
        />
        {v.dbTls && <CertificateFields {...props} sentBefore="the login" />}
      </fieldset>
    );
  };
}

const mqttModes: { value: MqttMode; label: string }[] = [
  { value: 'connect', label: 'Connect and log in' },
  { value: 'subscribe', label: 'Wait for a message on a topic' },
  { value: 'roundtrip', label: 'Publish a probe and receive it back' },
];

const mqttMatches: { value: MqttMatch; label: string }[] = [
  { value: 'keyword', label: 'Contains text' },
  { value: 'json', label: 'JSON value' },
];

function MqttMessageSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Messages</legend>
      <div className="form__grid">
        <SelectField
          name="mode"
          label="Check"
          error={errorFor('mode')}
          value={v.mqttMode}
          options={mqttModes}
          onChange={(mode) => set('mqttMode', mode, 'mode')}
        />
        {v.mqttMode !== 'connect' && (
          <TextInputField
            name="topic"
            label="Topic"
            error={errorFor('topic')}
            hint={
              v.mqttMode === 'subscribe'
                ? 'Wildcards + and # are allowed. A retained message counts at once.'
                : 'The probe is published here and must come back: no wildcards; the user needs the right to publish and subscribe.'
            }
            kind="code"
            input={{ placeholder: 'plant/boiler/status', ...text('mqttTopic') }}
          />
        )}
      </div>
      {v.mqttMode === 'subscribe' && (
        <div className="form__grid">
          <SelectField
            name="match"
            label="The message must"
            error={errorFor('match')}
            value={v.mqttMatch}
            options={mqttMatches}
            onChange={(match) => set('mqttMatch', match, 'match')}
          />
          {v.mqttMatch === 'json' && (
            <TextInputField
              name="jsonPath"
              label="JSON path"
              error={errorFor('jsonPath')}
              hint="e.g. $.status or $.items[0].ok"
              kind="code"
              input={{ placeholder: '$.status', ...text('mqttJsonPath') }}
            />
          )}
          <TextInputField
            name="expected"
            label={v.mqttMatch === 'json' ? 'Expected value' : 'Text'}
            optional
            error={errorFor('expected')}
            hint={
              v.mqttMatch === 'json'
                ? 'Compared as text (true, 42, ok). Empty: the path only has to exist.'
                : 'Empty: any message on the topic is up.'
            }
            kind="code"
            input={text('mqttExpected')}
          />
        </div>
      )}
      <p className="form__note">
        Within the timeout; when only other messages came, the last one is shown with the failure.
      </p>
      <div className="form__grid">
        <DegradedField {...props} hint="Checks slower than this count as degraded." />
      </div>
    </fieldset>
  );
}

function AmqpQueueSection(props: SectionProps) {
  const { errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Virtual host and queue</legend>
      <div className="form__grid">
        <TextInputField
          name="vhost"
          label="Virtual host"
          error={errorFor('vhost')}
          hint="/ by default."
          kind="code"
          input={{ placeholder: '/', ...text('amqpVhost') }}
        />
        <TextInputField
          name="queue"
          label="Queue"
          optional
          error={errorFor('queue')}
          hint="Must exist; it is looked up passively, never created. Empty: logging in is enough."
          kind="code"
          input={{ placeholder: 'orders', ...text('amqpQueue') }}
        />
        <TextInputField
          name="maxDepth"
          label="Most ready messages"
          optional
          error={errorFor('maxDepth')}
          hint="More messages waiting than this is down. Empty: any depth."
          kind="number"
          input={{ placeholder: 'Any depth', ...text('amqpMaxDepth') }}
        />
        <DegradedField {...props} hint="Checks slower than this count as degraded." />
      </div>
    </fieldset>
  );
}

const mailSecurities: { value: MailSecurity; label: string }[] = [
  { value: 'starttls', label: 'STARTTLS (ports 25, 587)' },
  { value: 'tls', label: 'TLS from the start (port 465)' },
  { value: 'none', label: 'None (plain text)' },
];

function SmtpTargetFields({ v, errorFor, text }: SectionProps) {
  const port = v.mailSecurity === 'tls' ? 465 : 25;
  return (
    <HostPortFields
      errorFor={errorFor}
      host={text('host')}
      port={{ ...text('port'), placeholder: String(port) }}
      hostHint="A host name or IP address, e.g. mx.example.com"
      portHint={`${port} if empty`}
    />
  );
}

function SmtpMailSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Mail server</legend>
      <p className="form__note">
        Reads the 220 greeting and says EHLO; no mail is sent and no login is tried.
      </p>
      <div className="form__grid">
        <SelectField
          name="security"
          label="Security"
          error={errorFor('security')}
          value={v.mailSecurity}
          options={mailSecurities}
          onChange={(security) => set('mailSecurity', security, 'security')}
        />
        <TextInputField
          name="capabilities"
          label="Required capabilities"
          optional
          error={errorFor('capabilities')}
          hint="EHLO extensions that must be offered, e.g. AUTH, SIZE, 8BITMIME (after STARTTLS when used)."
          kind="code"
          input={{ placeholder: 'AUTH, SIZE', ...text('smtpCapabilities') }}
        />
        <TextInputField
          name="ehloName"
          label="EHLO name"
          optional
          error={errorFor('ehloName')}
          hint="The name Pagewatch introduces itself with. Empty: pagewatch.invalid."
          kind="host"
          input={{ placeholder: 'pagewatch.invalid', ...text('smtpEhloName') }}
        />
        <DegradedField {...props} hint="Checks slower than this count as degraded." />
      </div>
      {v.mailSecurity === 'none' ? (
        <Notice tone="warning" title="The connection is not encrypted">
          Only the greeting and EHLO are checked; no certificate.
        </Notice>
      ) : (
        <CertificateFields {...props} sentBefore="EHLO" />
      )}
    </fieldset>
  );
}

export const mqttForm: KindForm = (() => {
  const text: BrokerText = {
    product: 'MQTT',
    port: 1883,
    tlsPort: 8883,
    userHint: 'Empty: connect without a login (if the broker allows anonymous clients).',
    userOptional: true,
  };
  return { Target: BrokerTarget(text), sections: [BrokerLogin(text), MqttMessageSection] };
})();

export const amqpForm: KindForm = (() => {
  const text: BrokerText = {
    product: 'RabbitMQ',
    port: 5672,
    tlsPort: 5671,
    userHint: 'A user with access to the virtual host; it needs no rights to write.',
    userOptional: false,
  };
  return { Target: BrokerTarget(text), sections: [BrokerLogin(text), AmqpQueueSection] };
})();

export const smtpForm: KindForm = { Target: SmtpTargetFields, sections: [SmtpMailSection] };

/** IMAP and POP3: the greeting and STARTTLS (or TLS from the start), no login. */
function mailbox(name: string, port: number, tlsPort: number): KindForm {
  const securities: { value: MailSecurity; label: string }[] = [
    { value: 'starttls', label: `STARTTLS (port ${port})` },
    { value: 'tls', label: `TLS from the start (port ${tlsPort})` },
    { value: 'none', label: 'None (plain text)' },
  ];
  function MailboxTargetFields({ v, errorFor, text }: SectionProps) {
    const shown = v.mailSecurity === 'tls' ? tlsPort : port;
    return (
      <HostPortFields
        errorFor={errorFor}
        host={text('host')}
        port={{ ...text('port'), placeholder: String(shown) }}
        hostHint="A host name or IP address, e.g. mail.example.com"
        portHint={`${shown} if empty`}
      />
    );
  }
  function MailboxSection(props: SectionProps) {
    const { v, set, errorFor } = props;
    return (
      <fieldset className="form__section">
        <legend className="form__legend">{name} server</legend>
        <p className="form__note">
          Reads the greeting and, with STARTTLS, upgrades the connection; no login is tried.
        </p>
        <div className="form__grid">
          <SelectField
            name="security"
            label="Security"
            error={errorFor('security')}
            value={v.mailSecurity}
            options={securities}
            onChange={(security) => set('mailSecurity', security, 'security')}
          />
          <DegradedField {...props} hint="Checks slower than this count as degraded." />
        </div>
        {v.mailSecurity === 'none' ? (
          <Notice tone="warning" title="The connection is not encrypted">
            Only the greeting is checked; no certificate.
          </Notice>
        ) : (
          <CertificateFields {...props} sentBefore="the goodbye" />
        )}
      </fieldset>
    );
  }
  return { Target: MailboxTargetFields, sections: [MailboxSection] };
}

export const imapForm = mailbox('IMAP', 143, 993);
export const pop3Form = mailbox('POP3', 110, 995);
