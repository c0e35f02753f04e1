import { Field } from '../../../../components/ui/Field';
import { HostPortFields, TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

export function TcpTargetFields({ errorFor, text }: SectionProps) {
  return (
    <HostPortFields
      errorFor={errorFor}
      host={text('host')}
      port={text('port')}
      hostHint="A host name or IP address, e.g. db.example.com or 10.0.0.5"
      portHint="1 to 65,535"
    />
  );
}

export function TcpExchangeSection(props: SectionProps) {
  const { errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Conversation</legend>
      <p className="form__note">
        Connecting is enough unless you set what to expect. Write <code>\r</code>, <code>\n</code>,{' '}
        <code>\t</code>, <code>\0</code> and <code>\xHH</code> for control bytes, <code>\\</code>{' '}
        for a backslash.
      </p>
      <Field
        name="send"
        label="Send after connecting"
        optional
        error={errorFor('send')}
        hint="Up to 4,096 characters, e.g. PING\r\n"
      >
        {(p) => (
          <textarea {...p} className="input mono" rows={2} spellCheck={false} {...text('send')} />
        )}
      </Field>
      <TextInputField
        name="expect"
        label="Expect in the reply"
        optional
        error={errorFor('expect')}
        hint="Must arrive within the timeout; the first 64 KiB are searched. E.g. +PONG"
        kind="code"
        input={text('expect')}
      />
      <div className="form__grid">
        <DegradedField
          {...props}
          hint="Checks slower than this, expected reply included, count as degraded."
        />
      </div>
    </fieldset>
  );
}
