import type { ChangeEvent, ComponentProps, InputHTMLAttributes } from 'react';
import { Field } from '../../../../components/ui/Field';

/** Everything Field takes but the control: label, name, hint, error, optional, class. */
type FieldFrame = Omit<ComponentProps<typeof Field>, 'children' | 'inline'>;

/** A choice; a bare string is shown as itself and sent as its own text. */
export type SelectOption<T extends string> = T | { value: T; label: string };

interface SelectFieldProps<T extends string> extends FieldFrame {
  value: T;
  options: readonly SelectOption<T>[];
  onChange: (value: T) => void;
}

export function SelectField<T extends string>({
  value,
  options,
  onChange,
  ...field
}: SelectFieldProps<T>) {
  return (
    <Field {...field}>
      {(p) => (
        <select
          {...p}
          className="input select"
          value={value}
          // The options are all of type T, so the chosen value is one of them.
          onChange={(e) => onChange(e.target.value as T)}
        >
          {options.map((o) =>
            typeof o === 'string' ? (
              <option key={o}>{o}</option>
            ) : (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ),
          )}
        </select>
      )}
    </Field>
  );
}

interface CheckboxFieldProps extends FieldFrame {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** A checkbox before its label on one line. */
export function CheckboxField({ checked, onChange, ...field }: CheckboxFieldProps) {
  return (
    <Field {...field} inline>
      {(p) => (
        <input
          {...p}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
        />
      )}
    </Field>
  );
}

/**
 * How each sort of text input is set up. `code` is anything typed exactly (selectors, patterns),
 * `host` also keeps phones from capitalising the first letter of a name.
 */
const textKinds = {
  text: { className: 'input', autoComplete: 'off' },
  code: { className: 'input mono', autoComplete: 'off', spellCheck: false },
  host: { className: 'input mono', autoComplete: 'off', autoCapitalize: 'off', spellCheck: false },
  url: {
    className: 'input mono',
    type: 'url',
    inputMode: 'url',
    autoComplete: 'off',
    spellCheck: false,
    placeholder: 'https://',
  },
  number: { className: 'input', inputMode: 'numeric' },
  // new-password keeps browsers from filling in the user's own Pagewatch password.
  password: { className: 'input mono', type: 'password', autoComplete: 'new-password' },
} as const satisfies Record<string, InputHTMLAttributes<HTMLInputElement>>;

export type TextKind = keyof typeof textKinds;

/** The input's own value and change handler, plus any attribute to add or override. */
export type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
};

interface TextInputFieldProps extends FieldFrame {
  kind: TextKind;
  input: TextInputProps;
}

export function TextInputField({ kind, input, ...field }: TextInputFieldProps) {
  return <Field {...field}>{(p) => <input {...p} {...textKinds[kind]} {...input} />}</Field>;
}

interface HostPortFieldsProps {
  errorFor: (key: string) => string | undefined;
  host: TextInputProps;
  port: TextInputProps;
  hostHint: string;
  portHint: string;
}

/** Host and port side by side, for the types that connect to a host. */
export function HostPortFields({ errorFor, host, port, hostHint, portHint }: HostPortFieldsProps) {
  return (
    <div className="form__row form__row--hostport">
      <TextInputField
        name="host"
        label="Host"
        error={errorFor('host')}
        hint={hostHint}
        kind="host"
        input={host}
      />
      <TextInputField
        name="port"
        label="Port"
        error={errorFor('port')}
        hint={portHint}
        kind="number"
        input={port}
      />
    </div>
  );
}
