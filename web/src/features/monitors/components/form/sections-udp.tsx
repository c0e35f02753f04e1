import { Field } from '../../../../components/ui/Field';
import { HostPortFields, SelectField, TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

const formats = [
  { value: 'text', label: 'Text with escapes' },
  { value: 'hex', label: 'Hex bytes' },
] as const;

export function UdpTargetFields({ errorFor, text }: SectionProps) {
  return (
    <HostPortFields
      errorFor={errorFor}
      host={text('host')}
      port={text('port')}
      hostHint="A host name or IP address, e.g. ntp.example.com or 10.0.0.5"
      portHint="1 to 65,535"
    />
  );
}

export function UdpExchangeSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  const hex = v.payloadFormat === 'hex';
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Datagram</legend>
      <p className="form__note">
        {hex ? (
          <>
            Write bytes as pairs of hex digits; spaces are ignored, e.g. <code>de ad be ef</code>.
          </>
        ) : (
          <>
            Write <code>\r</code>, <code>\n</code>, <code>\t</code>, <code>\0</code> and{' '}
            <code>\xHH</code> for control bytes, <code>\\</code> for a backslash.
          </>
        )}{' '}
        A reply must come within the timeout; a closed port (ICMP port unreachable) is down at once.
      </p>
      <SelectField
        name="format"
        label="Written as"
        error={errorFor('format')}
        value={v.payloadFormat}
        options={formats}
        onChange={(f) => set('payloadFormat', f)}
      />
      <Field
        name="send"
        label="Send"
        error={errorFor('send')}
        hint={
          hex ? 'E.g. ff ff ff ff 54 53 6f 75 72 63 65' : 'Up to 4,096 characters, e.g. ping\\n'
        }
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
        hint={
          hex ? 'Bytes the reply must contain, e.g. ff ff' : 'Empty: any reply is up. E.g. pong'
        }
        kind="code"
        input={text('expect')}
      />
      <div className="form__grid">
        <DegradedField {...props} hint="Replies slower than this count as degraded." />
      </div>
    </fieldset>
  );
}
