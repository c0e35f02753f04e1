import { PasswordReset, type User } from '@pagewatch/contract';
import { Field } from '../../../../components/ui/Field';
import { FormDialog } from '../../../../components/ui/FormDialog';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { PasswordInput, PasswordRules } from '../../../auth/components/PasswordInput';
import { useResetPassword } from '../../api/users';

/** Sets a new password for someone who lost theirs; they are signed out everywhere. */
export function ResetPasswordDialog({
  user,
  onDone,
  onCancel,
}: {
  user: User;
  onDone: () => void;
  onCancel: () => void;
}) {
  const reset = useResetPassword(user.id);
  const form = useSchemaForm({ initial: { password: '' }, schema: PasswordReset });
  const otherError =
    reset.error && !(isApiError(reset.error) && reset.error.fieldErrors.length)
      ? reset.error
      : null;
  return (
    <FormDialog
      open
      title={`New password for ${user.name}`}
      submitLabel="Set password"
      busy={reset.isPending}
      onCancel={onCancel}
      formRef={form.formRef}
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        reset.mutate(input.password, {
          onSuccess: onDone,
          onError: (e) => form.showServerErrors(e),
        }),
      )}
    >
      <p className="dialog__body">
        They are signed out everywhere and sign in with this password next. Give it to them
        privately.
      </p>
      <Field name="password" label="New password" error={form.errorFor('password')}>
        {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('password')} />}
      </Field>
      <PasswordRules value={form.values.password} />
      {otherError && <ErrorNotice error={otherError} />}
    </FormDialog>
  );
}
