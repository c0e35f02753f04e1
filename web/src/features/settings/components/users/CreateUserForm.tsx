import { UserCreate, type Role, type User } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { EmailField, noticeError, RoleField, showAccountError } from './AccountFields';
import { PasswordInput, PasswordRules } from '../../../auth/components/PasswordInput';
import { useCreateUser } from '../../api/users';
import { leaveScreen, useLeaveGuard } from '../../../../lib/leave-guard';

const initial = { name: '', email: '', role: 'viewer', password: '' };

/** A new account with a first password the manager hands over; they change it later. */
export function CreateUserForm({
  roles,
  onCreated,
  onCancel,
}: {
  roles: readonly Role[];
  onCreated: (user: User) => void;
  onCancel: () => void;
}) {
  const create = useCreateUser();
  const form = useSchemaForm({ initial, schema: UserCreate });
  const leave = useLeaveGuard(form.dirty);
  const otherError = noticeError(create.error);
  return (
    <form
      ref={form.formRef}
      className="panel stack-form"
      aria-labelledby="new-user-title"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        create.mutate(input, {
          onSuccess: (created) => {
            leave.allowLeave();
            onCreated(created);
          },
          onError: (e) => showAccountError(form, e),
        }),
      )}
    >
      {leave.guard}
      <h3 id="new-user-title" className="panel__title">
        Add a user
      </h3>
      <div className="form__grid">
        <Field name="name" label="Name" error={form.errorFor('name')}>
          {(p) => <input {...p} className="input" autoComplete="off" {...form.bind('name')} />}
        </Field>
        <EmailField form={form} />
      </div>
      <div className="form__grid">
        <RoleField form={form} roles={roles} />
        <div className="field-stack">
          <Field
            name="password"
            label="First password"
            error={form.errorFor('password')}
            hint="Give it to them privately; they can change it under Account."
          >
            {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('password')} />}
          </Field>
          <PasswordRules value={form.values.password} />
        </div>
      </div>
      {otherError && <ErrorNotice error={otherError} />}
      <div className="button-row">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Add user
        </Button>
        <Button variant="ghost" onClick={() => leaveScreen(onCancel)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
