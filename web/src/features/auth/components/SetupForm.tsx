import { SetupInput } from '@pagewatch/contract';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useSetup } from '../api/mutations';
import { PasswordInput, PasswordRules } from './PasswordInput';

const initial = { name: '', email: '', password: '', confirm: '' };
type Values = typeof initial;

const toInput = ({ name, email, password }: Values) => ({ name, email, password });
export const confirmCheck = (v: { password: string; confirm: string }): { confirm?: string } =>
  v.confirm === ''
    ? { confirm: 'Type the password again' }
    : v.confirm !== v.password
      ? { confirm: 'The two passwords are not the same' }
      : {};

/** First run: the owner account. Success signs in; the setup screen then leads into the app. */
export function SetupForm() {
  const setup = useSetup();
  const form = useSchemaForm({
    initial,
    schema: SetupInput,
    toInput,
    check: confirmCheck,
  });
  const alreadyDone = isApiError(setup.error) && setup.error.kind === 'forbidden';
  const otherError =
    setup.error && !alreadyDone && !(isApiError(setup.error) && setup.error.fieldErrors.length)
      ? setup.error
      : null;

  return (
    <form
      ref={form.formRef}
      className="auth-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        setup.mutate(input, { onError: (e) => form.showServerErrors(e) }),
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
