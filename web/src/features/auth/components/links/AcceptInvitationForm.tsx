import { InvitationAccept, type InvitationInfo } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { linkProblemOf, useAcceptInvitation } from '../../api/links';
import { PasswordInput, PasswordRules } from '../PasswordInput';
import { LinkProblemNotice } from './LinkProblemNotice';

const initial = { name: '', password: '', confirm: '' };
const check = (v: typeof initial): { confirm?: string } =>
  v.confirm === ''
    ? { confirm: 'Type the password again' }
    : v.confirm !== v.password
      ? { confirm: 'The two passwords are not the same' }
      : {};

/** The invited person chooses their own name and password, then is signed in. */
export function AcceptInvitationForm({
  token,
  invitation,
}: {
  token: string;
  invitation: InvitationInfo;
}) {
  const accept = useAcceptInvitation();
  const form = useSchemaForm({
    initial,
    schema: InvitationAccept,
    toInput: ({ name, password }) => ({ token, name, password }),
    check,
  });
  const problem = linkProblemOf(accept.error);
  if (problem && isApiError(accept.error))
    return (
      <LinkProblemNotice
        problem={problem}
        then={`Ask ${invitation.invitedBy} to send the invitation again.`}
        next={{ to: '/login', label: 'Go to sign in' }}
      />
    );
  return (
    <form
      ref={form.formRef}
      className="auth-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        accept.mutate(input, { onError: (e) => form.showServerErrors(e) }),
      )}
    >
      <Field name="email" label="Email">
        {(p) => (
          <input
            {...p}
            className="input"
            type="email"
            autoComplete="username"
            value={invitation.email}
            readOnly
          />
        )}
      </Field>
      <Field name="name" label="Your name" error={form.errorFor('name')}>
        {(p) => (
          <input {...p} className="input" autoComplete="name" autoFocus {...form.bind('name')} />
        )}
      </Field>
      <Field name="password" label="Choose a password" error={form.errorFor('password')}>
        {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('password')} />}
      </Field>
      <PasswordRules value={form.values.password} />
      <Field name="confirm" label="Confirm password" error={form.errorFor('confirm')}>
        {(p) => <PasswordInput {...p} autoComplete="new-password" {...form.bind('confirm')} />}
      </Field>
      {accept.error &&
        !problem &&
        !(isApiError(accept.error) && accept.error.fieldErrors.length) && (
          <ErrorNotice error={accept.error} />
        )}
      <Button type="submit" variant="primary" className="auth-submit" busy={accept.isPending}>
        Join and sign in
      </Button>
    </form>
  );
}
