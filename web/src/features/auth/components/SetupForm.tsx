import { SetupInput } from '@pagewatch/contract';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useSetup } from '../api/mutations';
import { PasswordInput, PasswordRules } from './PasswordInput';

const initial = { name: '', email: '', password: '', confirm: '', setupToken: '' };
type Values = typeof initial;

export const confirmCheck = (v: { password: string; confirm: string }): { confirm?: string } =>
  v.confirm === ''
    ? { confirm: 'Type the password again' }
    : v.confirm !== v.password
      ? { confirm: 'The two passwords are not the same' }
      : {};

const tokenRefused = (error: unknown) =>
  isApiError(error) && error.kind === 'forbidden' && /token/i.test(error.detail ?? '');

/**
 * First run: the owner account. Success signs in; the setup screen then leads into the app.
 * From another machine the server also asks for the one-time token it printed in its log.
 */
export function SetupForm({ tokenRequired }: { tokenRequired: boolean }) {
  const setup = useSetup();
  const form = useSchemaForm({
    initial,
    schema: SetupInput,
    toInput: ({ name, email, password, setupToken }: Values) =>
      tokenRequired ? { name, email, password, setupToken } : { name, email, password },
    check: (v: Values) => ({
      ...confirmCheck(v),
      ...(tokenRequired && v.setupToken.trim() === ''
        ? { setupToken: 'Enter the setup token from the server log' }
        : {}),
    }),
  });
  const alreadyDone =
    isApiError(setup.error) && setup.error.kind === 'forbidden' && !tokenRefused(setup.error);
  const otherError =
    setup.error &&
    !alreadyDone &&
    !tokenRefused(setup.error) &&
    !(isApiError(setup.error) && setup.error.fieldErrors.length)
      ? setup.error
      : null;

  return (
    <form
      ref={form.formRef}
      className="auth-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        setup.mutate(input, {
          onError: (e) => {
            if (tokenRefused(e) && isApiError(e))
              form.setFieldError('setupToken', e.detail ?? 'This setup token is not right');
            else form.showServerErrors(e);
          },
        }),
      )}
    >
      <Field name="name" label="Your name" error={form.errorFor('name')}>
        {(p) => <input {...p} className="input" autoComplete="name" {...form.bind('name')} />}
      </Field>
      <Field name="email" label="Email" error={form.errorFor('email')}>
        {(p) => (
          <input
            {...p}
            className="input"
            type="email"
            inputMode="email"
            autoComplete="username"
            spellCheck={false}
            {...form.bind('email')}
          />
        )}
      </Field>
      <Field name="password" label="Password" error={form.errorFor('password')}>
        {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('password')} />}
      </Field>
      <PasswordRules value={form.values.password} />
      <Field name="confirm" label="Confirm password" error={form.errorFor('confirm')}>
        {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('confirm')} />}
      </Field>
      {tokenRequired && (
        <Field
          name="setupToken"
          label="Setup token"
          hint="You are not on the server itself, so prove you run it: the token is in the server log, in the line that starts “No account exists yet”."
          error={form.errorFor('setupToken')}
        >
          {(p) => (
            <input
              {...p}
              className="input mono"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              {...form.bind('setupToken')}
            />
          )}
        </Field>
      )}
      {alreadyDone && (
        <Notice tone="info" live title="Pagewatch is already set up">
          Someone created the owner account first. <Link to="/login">Sign in</Link> instead.
        </Notice>
      )}
      {otherError && <ErrorNotice error={otherError} />}
      {form.serverOther.map((m) => (
        <Notice key={m} tone="danger" live title={m} />
      ))}
      <Button type="submit" variant="primary" className="auth-submit" busy={setup.isPending}>
        Create owner account
      </Button>
    </form>
  );
}
