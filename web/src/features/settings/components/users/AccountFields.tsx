import type { Role } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { isApiError } from '../../../../lib/api';
import { describeRole, roleLabel } from '../../../auth/roles';

/** The part of a schema form the email and role fields use (new users and invitations). */
interface AccountForm {
  values: { email: string; role: string };
  bind: (key: 'email' | 'role') => {
    value: string;
    onChange: (e: { target: { value: string } }) => void;
  };
  errorFor: (key: 'email' | 'role') => string | undefined;
  setFieldError: (key: 'email', message: string) => void;
  showServerErrors: (error: unknown) => boolean;
}

export function EmailField({ form, autoFocus }: { form: AccountForm; autoFocus?: boolean }) {
  return (
    <Field name="email" label="Email" error={form.errorFor('email')}>
      {(p) => (
        <input
          {...p}
          className="input"
          type="email"
          inputMode="email"
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
          {...form.bind('email')}
        />
      )}
    </Field>
  );
}

/** The roles this manager may hand out, each explained under the field. */
export function RoleField({ form, roles }: { form: AccountForm; roles: readonly Role[] }) {
  return (
    <Field
      name="role"
      label="Role"
      error={form.errorFor('role')}
      hint={describeRole(form.values.role as Role)}
    >
      {(p) => (
        <select {...p} className="input select" {...form.bind('role')}>
          {roles.map((r) => (
            <option key={r} value={r}>
              {roleLabel[r]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * A failed create goes where a person looks for it: a taken address on the email field,
 * validation on its fields, anything else in a notice under the form.
 */
export function showAccountError(form: AccountForm, error: unknown): void {
  if (isApiError(error) && error.kind === 'conflict')
    form.setFieldError('email', error.detail ?? 'This email already has an account');
  else form.showServerErrors(error);
}

/** The error for the notice under the form: none when the fields already show it. */
export function noticeError<E>(error: E | null): E | null {
  if (!error) return null;
  return isApiError(error) && (error.fieldErrors.length || error.kind === 'conflict')
    ? null
    : error;
}
