import { PasswordResetRequest } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { formatClock } from '../../../../lib/format';
import { useCountdown } from '../../../../lib/use-countdown';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { resetByMailQuery, useRequestReset } from '../../api/links';

/** "Forgot password?": asks for a link by mail; the answer never says whether the address exists. */
export function ForgotPasswordForm({ email }: { email: string }) {
  const byMail = useQuery(resetByMailQuery());
  const request = useRequestReset();
  const form = useSchemaForm({ initial: { email }, schema: PasswordResetRequest });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pausedUntil, setPausedUntil] = useState<number | null>(null);
  const wait = useCountdown(pausedUntil);
  const error =
    request.error && !(isApiError(request.error) && request.error.fieldErrors.length)
      ? request.error
      : null;

  if (sentTo)
    return (
      <div className="auth-form">
        <Notice live title="Check your mail">
          If {sentTo} has an account here, a link to choose a new password is on its way. It works
          once, for one hour.
        </Notice>
        <p className="auth-links">
          <Link to="/login">Back to sign in</Link>
        </p>
      </div>
    );

  return (
    <form
      ref={form.formRef}
      className="auth-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        request.mutate(input.email, {
          onSuccess: () => setSentTo(input.email),
          onError: (e) => {
            form.showServerErrors(e);
            if (isApiError(e) && e.retryAfter !== undefined)
              setPausedUntil(Date.now() + e.retryAfter * 1000);
          },
        }),
      )}
    >
      {byMail.data === false && (
        <Notice tone="warning" title="This instance cannot mail reset links yet">
          Ask an admin to set a new password for you in Settings → Users. The owner can run{' '}
          <code>npx pagewatch reset-password &lt;email&gt;</code> on the server.
        </Notice>
      )}
      <Field name="email" label="Email" error={form.errorFor('email')}>
        {(p) => (
          <input
            {...p}
            className="input"
            type="email"
            inputMode="email"
            autoComplete="username"
            spellCheck={false}
            autoFocus
            {...form.bind('email')}
          />
        )}
      </Field>
      {error && <ErrorNotice error={error} />}
      <Button
        type="submit"
        variant="primary"
        className="auth-submit"
        busy={request.isPending}
        disabled={request.isPending || wait > 0}
      >
        {wait > 0 ? `Try again in ${formatClock(wait)}` : 'Send reset link'}
      </Button>
      <p className="auth-links">
        <Link to="/login">Back to sign in</Link>
      </p>
    </form>
  );
}
