import { TotpDisable } from '@pagewatch/contract';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useTotpDisable } from '../api/mutations';
import { PasswordInput } from './PasswordInput';

const initial = { password: '', code: '' };
const check = (v: typeof initial): { password?: string; code?: string } => ({
  ...(v.password === '' ? { password: 'Enter your password' } : {}),
  ...(v.code.trim().length < 6 ? { code: 'Enter a 6-digit code or a recovery code' } : {}),
});

/** Turning two-factor off asks for both factors, so a borrowed session cannot do it. */
export function TotpDisableForm({
  onDone,
  onCancel,
}: {
  onDone: () => void;
  onCancel: () => void;
}) {
  const disable = useTotpDisable();
  const form = useSchemaForm({ initial, schema: TotpDisable, check });
  const otherError =
    disable.error && !(isApiError(disable.error) && disable.error.fieldErrors.length)
      ? disable.error
      : null;
  return (
    <form
      ref={form.formRef}
      className="stack-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        disable.mutate(input, { onSuccess: onDone, onError: (e) => form.showServerErrors(e) }),
      )}
    >
      <Field name="password" label="Your password" error={form.errorFor('password')}>
        {(p) => <PasswordInput {...p} autoComplete="current-password" {...form.bind('password')} />}
      </Field>
      <Field
        name="code"
        label="Code from your app, or a recovery code"
        error={form.errorFor('code')}
      >
        {(p) => (
          <input
            {...p}
            className="input input--code"
            autoComplete="one-time-code"
            spellCheck={false}
            {...form.bind('code')}
          />
        )}
      </Field>
      {otherError && <ErrorNotice error={otherError} />}
      <div className="button-row">
        <Button type="submit" variant="danger" busy={disable.isPending}>
          Turn off two-factor
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Keep it on
        </Button>
      </div>
    </form>
  );
}
