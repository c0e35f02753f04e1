import { InvitationCreate, type InvitationSent, type Role } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { leaveScreen, useLeaveGuard } from '../../../../lib/leave-guard';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { describeRole, roleLabel } from '../../../auth/roles';
import { useCreateInvitation } from '../../api/invitations';

const initial = { email: '', role: 'viewer' };

/** Invites an address with a role: they get a link and choose their own name and password. */
export function InviteForm({
  roles,
  onSent,
  onCancel,
}: {
  roles: readonly Role[];
  onSent: (sent: InvitationSent) => void;
  onCancel: () => void;
}) {
  const create = useCreateInvitation();
  const form = useSchemaForm({ initial, schema: InvitationCreate });
  const leave = useLeaveGuard(form.dirty);
  const otherError =
    create.error &&
    !(
      isApiError(create.error) &&
      (create.error.fieldErrors.length || create.error.kind === 'conflict')
    )
      ? create.error
      : null;
  return (
    <form
      ref={form.formRef}
      className="panel stack-form"
      aria-labelledby="invite-title"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        create.mutate(input, {
          onSuccess: (sent) => {
            form.reset();
            onSent(sent);
          },
          onError: (e) => {
            if (isApiError(e) && e.kind === 'conflict')
              form.setFieldError('email', e.detail ?? 'This email already has an account');
            else form.showServerErrors(e);
          },
        }),
      )}
    >
      {leave.guard}
      <h3 id="invite-title" className="panel__title">
        Invite someone
      </h3>
      <p className="panel__intro">
        They get a link by mail, valid for 7 days, and choose their own name and password.
      </p>
      <div className="form__grid">
        <Field name="email" label="Email" error={form.errorFor('email')}>
          {(p) => (
            <input
              {...p}
              className="input"
              type="email"
              inputMode="email"
              autoComplete="off"
              spellCheck={false}
              autoFocus
              {...form.bind('email')}
            />
          )}
        </Field>
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
      </div>
      {otherError && <ErrorNotice error={otherError} />}
      <div className="button-row">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Send invitation
        </Button>
        <Button variant="ghost" onClick={() => leaveScreen(onCancel)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
