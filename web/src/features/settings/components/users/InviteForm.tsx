import { InvitationCreate, type InvitationSent, type Role } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { leaveScreen, useLeaveGuard } from '../../../../lib/leave-guard';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { EmailField, noticeError, RoleField, showAccountError } from './AccountFields';
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
  const otherError = noticeError(create.error);
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
          onError: (e) => showAccountError(form, e),
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
        <EmailField form={form} autoFocus />
        <RoleField form={form} roles={roles} />
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
