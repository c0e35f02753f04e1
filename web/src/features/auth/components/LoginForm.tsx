import { LoginInput } from '@pagewatch/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { Notice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { formatClock } from '../../../lib/format';
import { useCountdown } from '../../../lib/use-countdown';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useLogin } from '../api/mutations';
import { describeSignInError } from '../sign-in-errors';
import { PasswordInput } from './PasswordInput';

interface LoginFormProps {
  email: string;
  /** Why the person is back at this step (an expired two-factor step), shown above the form. */
  notice?: { title: string; detail?: string } | null;
  /** `methods`: what the second step takes, a code and/or a passkey. */
  onTotpRequired: (challenge: string, email: string, methods: ('totp' | 'passkey')[]) => void;
}

/** Step one: email and password. Signing in without two-factor ends here. */
export function LoginForm({ email, notice, onTotpRequired }: LoginFormProps) {
  const login = useLogin();
  const form = useSchemaForm({ initial: { email, password: '' }, schema: LoginInput });
  const [pausedUntil, setPausedUntil] = useState<number | null>(null);
  const wait = useCountdown(pausedUntil);
  const error = login.error && !(isApiError(login.error) && login.error.fieldErrors.length);
  const text = error ? describeSignInError(login.error) : null;

  return (
    <form
      ref={form.formRef}
      className="auth-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        login.mutate(input, {
          onSuccess: (result) => {
            if (result.status === 'totp_required')
              onTotpRequired(result.challenge, input.email, result.methods);
          },
          onError: (e) => {
            form.showServerErrors(e);
            if (isApiError(e) && e.retryAfter !== undefined)
              setPausedUntil(Date.now() + e.retryAfter * 1000);
          },
        }),
      )}
    >
      {notice && !login.error && (
        <Notice tone="warning" live title={notice.title}>
          {notice.detail}
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
            autoFocus={email === ''}
            {...form.bind('email')}
          />
        )}
      </Field>
      <Field name="password" label="Password" error={form.errorFor('password')}>
        {(p) => (
          <PasswordInput
            {...p}
            autoComplete="current-password"
            autoFocus={email !== ''}
            {...form.bind('password')}
          />
        )}
      </Field>
      <p className="auth-forgot">
        <Link
          to={`/forgot-password${form.values.email ? `?email=${encodeURIComponent(form.values.email)}` : ''}`}
        >
          Forgot password?
        </Link>
      </p>
      {text && (
        <Notice tone="danger" live title={text.title}>
          {text.detail || undefined}
        </Notice>
      )}
      <Button
        type="submit"
        variant="primary"
        className="auth-submit"
        busy={login.isPending}
        disabled={login.isPending || wait > 0}
      >
        {wait > 0 ? `Try again in ${formatClock(wait)}` : 'Sign in'}
      </Button>
    </form>
  );
}
