import { PasswordChange } from '@pagewatch/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useLeaveGuard } from '../../../lib/leave-guard';
import { useChangePassword } from '../api/mutations';
import { useMe } from '../api/session';
import { PasswordInput, PasswordRules } from './PasswordInput';

const initial = { current: '', next: '', confirm: '' };
const toInput = ({ current, next }: typeof initial) => ({ current, next });
const check = (v: typeof initial): { confirm?: string } =>
  v.confirm === ''
    ? { confirm: 'Type the new password again' }
    : v.confirm !== v.next
      ? { confirm: 'The two passwords are not the same' }
      : {};

export function ChangePasswordForm() {
  const { email } = useMe();
  const change = useChangePassword();
  const form = useSchemaForm({ initial, schema: PasswordChange, toInput, check });
  const leave = useLeaveGuard(form.dirty);
  const [done, setDone] = useState(false);
  const otherError =
    change.error && !(isApiError(change.error) && change.error.fieldErrors.length)
      ? change.error
      : null;
  return (
    <section className="panel" aria-labelledby="password-title">
      <h3 id="password-title" className="panel__title">
        Password
      </h3>
      <p className="panel__intro">
        Changing it signs you out everywhere else; this browser stays signed in.
      </p>
      <form
        ref={form.formRef}
        className="stack-form"
        noValidate
        onBlur={form.onBlur}
        onSubmit={form.handleSubmit((input) => {
          setDone(false);
          change.mutate(input, {
            onSuccess: () => {
              form.reset();
              setDone(true);
            },
            onError: (e) => form.showServerErrors(e),
          });
        })}
      >
        {leave.guard}
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" autoComplete="username" value={email} readOnly hidden />
        <Field name="current" label="Current password" error={form.errorFor('current')}>
          {(p) => (
            <PasswordInput {...p} autoComplete="current-password" {...form.bind('current')} />
          )}
        </Field>
        <Field name="next" label="New password" error={form.errorFor('next')}>
          {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('next')} />}
        </Field>
        <PasswordRules value={form.values.next} />
        <Field name="confirm" label="Confirm new password" error={form.errorFor('confirm')}>
          {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('confirm')} />}
        </Field>
        {otherError && <ErrorNotice error={otherError} />}
        {done && (
          <Notice live title="Password changed">
            Your other sessions were signed out.
          </Notice>
        )}
        <div className="stack-form__buttons">
          <Button type="submit" variant="primary" busy={change.isPending}>
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}
