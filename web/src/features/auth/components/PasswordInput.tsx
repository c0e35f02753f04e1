import { isCommonPassword } from '@pagewatch/contract';
import { useState, type InputHTMLAttributes } from 'react';
import { Icon } from '../../../components/ui/Icon';

type PasswordInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  autoComplete: 'current-password' | 'new-password';
};

/** A password input with a show/hide switch, for typing long passwords on phones. */
export function PasswordInput({ className, ...props }: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  return (
    <div className="password">
      <input
        {...props}
        type={shown ? 'text' : 'password'}
        className={`input password__input ${className ?? ''}`}
        spellCheck={false}
        autoCapitalize="none"
      />
      <button
        type="button"
        className="password__toggle"
        aria-pressed={shown}
        aria-label="Show password"
        title={shown ? 'Hide password' : 'Show password'}
        onClick={() => setShown((s) => !s)}
      >
        <Icon name={shown ? 'eyeOff' : 'eye'} />
      </button>
    </div>
  );
}

const MIN = 10;

/** The password rules of SPEC §5, ticked off live as the person types. */
export function PasswordRules({ value, id }: { value: string; id?: string }) {
  const long = value.length >= MIN;
  const common = value.length > 0 && isCommonPassword(value);
  return (
    <ul className="rules" id={id} aria-label="Password rules">
      <li className={`rules__item ${long ? 'rules__item--ok' : ''}`}>
        <Icon name={long ? 'check' : 'circle'} size={14} />
        At least {MIN} characters
        {!long && value.length > 0 && (
          <span className="rules__count"> ({value.length} so far)</span>
        )}
        <span className="visually-hidden">{long ? ': met' : ': not met yet'}</span>
      </li>
      <li className={`rules__item ${common ? 'rules__item--bad' : value ? 'rules__item--ok' : ''}`}>
        <Icon name={common ? 'x' : value ? 'check' : 'circle'} size={14} />
        Not a commonly used password
        <span className="visually-hidden">{common ? ': not met' : value ? ': met' : ''}</span>
      </li>
    </ul>
  );
}
