import { NewPassword } from '@pagewatch/contract';
import { useState } from 'react';
import { z } from 'zod';
import { Button, ButtonLink } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { linkProblemOf, useResetPassword } from '../../api/links';
import { PasswordInput, PasswordRules } from '../PasswordInput';
import { LinkProblemNotice } from './LinkProblemNotice';

const schema = z.object({ password: NewPassword });
const initial = { password: '', confirm: '' };
const toInput = ({ password }: typeof initial) => ({ password });
const check = (v: typeof initial): { confirm?: string } =>
  v.confirm === ''
    ? { confirm: 'Type the new password again' }
    : v.confirm !== v.password
      ? { confirm: 'The two passwords are not the same' }
      : {};

/** The new-password form behind a reset link. */
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const reset = useResetPassword();
  const form = useSchemaForm({ initial, schema, toInput, check });
  const [done, setDone] = useState(false);
  const problem = linkProblemOf(reset.error);

  if (done)
    return (
      <div className="auth-form">
        <Notice live title="Password changed">
          Every session of {email} was signed out. Sign in with the new password.
        </Notice>
        <ButtonLink variant="primary" className="auth-submit" to="/login">
          Sign in
        </ButtonLink>
      </div>
    );
  if (problem && isApiError(reset.error))
    return (
      <LinkProblemNotice
        problem={problem}
        then="Ask for a new link."
        next={{ to: '/forgot-password', label: 'Ask for a new link' }}
      />
    );

  return (
    <form
      ref={form.formRef}
      className="auth-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        reset.mutate(
          { token, password: input.password },
          { onSuccess: () => setDone(true), onError: (e) => form.showServerErrors(e) },
        ),
      )}
    >
      <input type="email" autoComplete="username" value={email} readOnly hidden />
      <Field name="password" label="New password" error={form.errorFor('password')}>
        {(p) => (
          <PasswordInput {...p} autoComplete="new-password" autoFocus {...form.bind('password')} />
        )}
      </Field>
      <PasswordRules value={form.values.password} />
      <Field name="confirm" label="Confirm new password" error={form.errorFor('confirm')}>
        {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('confirm')} />}
      </Field>
      {reset.error && !problem && !(isApiError(reset.error) && reset.error.fieldErrors.length) && (
        <ErrorNotice error={reset.error} />
      )}
      <Button type="submit" variant="primary" className="auth-submit" busy={reset.isPending}>
        Set new password
      </Button>
    </form>
  );
}
