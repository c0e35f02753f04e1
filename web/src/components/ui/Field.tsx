import { useId, type ReactNode } from 'react';
import { Icon } from './Icon';

/** Props to spread on the control so its label, hint and error are wired for assistive tech. */
export interface ControlProps {
  id: string;
  name: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /** For checkboxes: the control sits before the label on one line. */
  inline?: boolean;
  optional?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

export function Field({
  name,
  label,
  hint,
  error,
  inline,
  optional,
  className,
  children,
}: FieldProps) {
  const base = useId();
  const id = `${base}-control`;
  // The error replaces the hint while it shows: they often say the same thing.
  const showHint = Boolean(hint) && !error;
  const hintId = showHint ? `${base}-hint` : undefined;
  const errorId = error ? `${base}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const control = children({
    id,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  });
  return (
    <div
      className={[
        'field',
        inline ? 'field--inline' : '',
        error ? 'field--invalid' : '',
        className ?? '',
      ]
        .filter(Boolean)
        .join(' ')}
      data-field={name}
    >
      {inline ? (
        <div className="field__row">
          {control}
          <label htmlFor={id} className="field__label">
            {label}
          </label>
        </div>
      ) : (
        <>
          <label htmlFor={id} className="field__label">
            {label}
            {optional && <span className="field__optional"> (optional)</span>}
          </label>
          {control}
        </>
      )}
      {showHint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error">
          <Icon name="alertCircle" size={14} />
          {error}
        </p>
      )}
    </div>
  );
}
