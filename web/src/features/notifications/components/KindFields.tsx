import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import {
  CheckboxField,
  SelectField,
  TextInputField,
} from '../../monitors/components/form/controls';
import { fieldKey, type ChannelValues } from '../form-values';
import { channelKindSpecs, type FieldSpec } from '../kinds';

interface KindFieldsProps {
  values: ChannelValues;
  setField: (key: string, value: string | boolean) => void;
  errorFor: (key: string) => string | undefined;
}

/** A write-only secret: once stored it shows "set" with a way to replace it, never its value. */
function SecretField({
  spec,
  value,
  stored,
  error,
  onChange,
}: {
  spec: FieldSpec;
  value: string;
  stored: boolean;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const [replacing, setReplacing] = useState(false);
  const name = fieldKey(spec);
  if (stored && !replacing && value === '' && !error) {
    return (
      <Field name={name} label={spec.label} hint={spec.hint}>
        {(p) => (
          <div className="secret-set">
            <span className="secret-set__state" id={p.id}>
              Set — hidden
            </span>
            <Button size="sm" onClick={() => setReplacing(true)}>
              Replace
            </Button>
          </div>
        )}
      </Field>
    );
  }
  return (
    <TextInputField
      name={name}
      label={spec.label}
      optional={spec.optional}
      error={error}
      hint={stored ? 'Leave empty to keep the stored value.' : spec.hint}
      kind="password"
      input={{ value, onChange: (e) => onChange(e.target.value), autoFocus: replacing }}
    />
  );
}

/** The settings of the chosen kind, drawn from its field table (kinds.ts). */
export function KindFields({ values, setField, errorFor }: KindFieldsProps) {
  const spec = channelKindSpecs[values.kind];
  return (
    <div className="form__grid">
      {spec.fields.map((f) => {
        const key = fieldKey(f);
        const raw = values.fields[key] ?? '';
        const text = typeof raw === 'string' ? raw : '';
        const common = { name: key, label: f.label, error: errorFor(key), optional: f.optional };
        switch (f.input) {
          case 'secret':
            return (
              <SecretField
                key={`${values.kind}-${key}`}
                spec={f}
                value={text}
                stored={values.secretsSet.includes(f.key)}
                error={errorFor(key)}
                onChange={(v) => setField(key, v)}
              />
            );
          case 'checkbox':
            return (
              <CheckboxField
                key={key}
                {...common}
                hint={f.hint}
                checked={raw === true}
                onChange={(v) => setField(key, v)}
              />
            );
          case 'select':
            return (
              <SelectField
                key={key}
                {...common}
                hint={f.hint}
                value={text}
                options={f.options ?? []}
                onChange={(v) => setField(key, v)}
              />
            );
          case 'lines':
          case 'headers':
            return (
              <Field key={key} {...common} hint={f.hint} className="form__wide">
                {(p) => (
                  <textarea
                    {...p}
                    className="input mono"
                    rows={3}
                    spellCheck={false}
                    value={text}
                    onChange={(e) => setField(key, e.target.value)}
                  />
                )}
              </Field>
            );
          default:
            return (
              <TextInputField
                key={key}
                {...common}
                {...(f.input === 'url' ? { className: 'form__wide' } : {})}
                hint={f.hint}
                kind={f.input === 'url' ? 'url' : f.input === 'number' ? 'number' : 'host'}
                input={{
                  value: text,
                  ...(f.placeholder ? { placeholder: f.placeholder } : {}),
                  onChange: (e) => setField(key, e.target.value),
                }}
              />
            );
        }
      })}
    </div>
  );
}
