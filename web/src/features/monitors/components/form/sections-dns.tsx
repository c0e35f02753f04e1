import { DnsRecordType, type DnsMatch } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { Segmented } from '../../../../components/ui/Segmented';
import { SelectField, TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

const recordTypes = DnsRecordType.options;

/** How each record type's answers are written, for the expected values (compared this way). */
const formats: Record<DnsRecordType, { format: string; example: string }> = {
  A: { format: 'an IPv4 address', example: '192.0.2.10' },
  AAAA: { format: 'an IPv6 address, any spelling', example: '2001:db8::10' },
  CNAME: {
    format: 'the target name; case and a trailing dot do not matter',
    example: 'www.example.net',
  },
  MX: { format: 'priority, then the mail server', example: '10 mail.example.com' },
  TXT: { format: 'the whole text, split strings joined, case kept', example: 'v=spf1 -all' },
  NS: {
    format: 'a name server; case and a trailing dot do not matter',
    example: 'ns1.example.com',
  },
  SOA: { format: 'primary name server, then the serial', example: 'ns1.example.com 2026010101' },
  CAA: { format: 'flags, tag and value', example: '0 issue "letsencrypt.org"' },
};

const matchOptions: { value: DnsMatch; label: string }[] = [
  { value: 'any', label: 'Any of them' },
  { value: 'all', label: 'All of them' },
];

export function DnsTargetFields({ v, set, errorFor, text }: SectionProps) {
  return (
    <>
      <div className="form__row form__row--url">
        <SelectField
          name="recordType"
          label="Record"
          error={errorFor('recordType')}
          value={v.recordType}
          options={recordTypes}
          onChange={(t) => set('recordType', t, 'expected')}
        />
        <TextInputField
          name="host"
          label="Host name"
          error={errorFor('host')}
          hint="The name to look up, e.g. example.com"
          kind="host"
          input={text('host')}
        />
      </div>
      <TextInputField
        name="resolver"
        label="DNS server"
        optional
        error={errorFor('resolver')}
        hint="An IP address, with a port if not 53: 10.0.0.53, 10.0.0.53:5353 or [fd00::53]:53. Empty: this server's own resolvers."
        kind="code"
        input={{ placeholder: 'System resolvers', ...text('resolver') }}
      />
    </>
  );
}

export function DnsAnswerSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  const { format, example } = formats[v.recordType];
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Answer</legend>
      <p className="form__note">
        With no expected values, any {v.recordType} record is up and no record is down. Values are
        compared as the server answers them: {v.recordType} is {format}, e.g. <code>{example}</code>
        .
      </p>
      <Field
        name="expected"
        label="Expected values"
        optional
        error={errorFor('expected')}
        hint="One per line, up to 20."
      >
        {(p) => (
          <textarea
            {...p}
            className="input mono"
            rows={3}
            spellCheck={false}
            placeholder={example}
            {...text('expected')}
          />
        )}
      </Field>
      <div className="field field--choice" data-field="match">
        <span className="field__label">Up when the answer holds</span>
        <Segmented
          label="Which values must be in the answer"
          value={v.match}
          options={matchOptions}
          onChange={(m) => set('match', m)}
        />
      </div>
      <div className="form__grid">
        <DegradedField {...props} hint="Lookups slower than this count as degraded." />
      </div>
    </fieldset>
  );
}
