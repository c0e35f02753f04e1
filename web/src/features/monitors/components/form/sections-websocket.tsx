import { Field } from '../../../../components/ui/Field';
import { Notice } from '../../../../components/ui/Notice';
import { CheckboxField, SelectField, TextInputField } from './controls';
import { HeadersEditor } from './HeadersEditor';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

const expectKinds = [
  { value: 'none', label: 'Nothing: the upgrade is enough' },
  { value: 'keyword', label: 'A message containing text' },
  { value: 'json', label: 'A JSON message with a value' },
] as const;

export function WebSocketTargetFields({ errorFor, text }: SectionProps) {
  return (
    <TextInputField
      name="url"
      label="URL"
      error={errorFor('url')}
      hint="ws:// or wss://, e.g. wss://example.com/socket"
      kind="url"
      input={{ ...text('url'), placeholder: 'wss://' }}
    />
  );
}

export function WebSocketExchangeSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Conversation</legend>
      <p className="form__note">
        Upgrades, sends the message if any, waits for the expected reply, then closes with code 1000
        and expects the server to close alike. Other close codes are down.
      </p>
      <Field name="send" label="Send after the upgrade" optional error={errorFor('send')}>
        {(p) => (
          <textarea {...p} className="input mono" rows={2} spellCheck={false} {...text('send')} />
        )}
      </Field>
      <SelectField
        name="expectKind"
        label="Expect"
        error={errorFor('expectKind')}
        value={v.expectKind}
        options={expectKinds}
        onChange={(k) => set('expectKind', k)}
      />
      <div className="form__grid">
        {v.expectKind === 'json' && (
          <TextInputField
            name="expectPath"
            label="JSON path"
            error={errorFor('expectPath')}
            hint="E.g. $.status or $.items[0].ok"
            kind="code"
            input={{ placeholder: '$.status', ...text('expectPath') }}
          />
        )}
        {v.expectKind !== 'none' && (
          <TextInputField
            name="expectValue"
            label={v.expectKind === 'json' ? 'Equals' : 'Contains'}
            optional={v.expectKind === 'json'}
            error={errorFor('expectValue')}
            hint={
              v.expectKind === 'json'
                ? 'Read as JSON when it parses (true, 42, "ok"). Empty: the path exists.'
                : 'Text the reply must contain, e.g. pong'
            }
            kind="code"
            input={text('expectValue')}
          />
        )}
      </div>
      {v.url.trim().startsWith('wss:') && (
        <>
          <CheckboxField
            name="ignoreTls"
            label="Ignore TLS errors (self-signed, expired or misnamed certificates)"
            error={errorFor('ignoreTls')}
            checked={v.ignoreTls}
            onChange={(checked) => set('ignoreTls', checked)}
          />
          {v.ignoreTls && (
            <Notice tone="warning" title="The certificate will not be verified">
              Its expiry is still shown and warned about 14 days ahead.
            </Notice>
          )}
        </>
      )}
      <HeadersEditor
        rows={v.headers}
        errorFor={errorFor}
        onChange={(rows, key) => set('headers', rows, key)}
        hint="Sent with the upgrade request, e.g. Authorization: Bearer … or X-Api-Key."
      />
      <div className="form__grid">
        <DegradedField {...props} hint="Upgrades (and replies) slower than this are degraded." />
      </div>
    </fieldset>
  );
}
