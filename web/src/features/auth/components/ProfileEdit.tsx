import { EmailChangeRequest, ProfileUpdate } from '@pagewatch/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useLeaveGuard } from '../../../lib/leave-guard';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useRequestEmailChange, useUpdateProfile } from '../api/links';
import { useMe } from '../api/session';
import { PasswordInput } from './PasswordInput';

const otherThanFields = (error: unknown) =>
  error && !(isApiError(error) && error.fieldErrors.length) ? error : null;

function NameForm() {
  const me = useMe();
  const update = useUpdateProfile();
  const [initial] = useState(() => ({ name: me.name }));
  const form = useSchemaForm({ initial, schema: ProfileUpdate });
  const leave = useLeaveGuard(form.dirty);
  const [done, setDone] = useState(false);
  const error = otherThanFields(update.error);
  return (
    <form
      ref={form.formRef}
      className="stack-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) => {
        setDone(false);
        update.mutate(input.name, {
          onSuccess: () => {
            // The saved name is the new baseline: nothing is left unsaved.
            form.reset({ name: input.name });
            setDone(true);
          },
          onError: (e) => form.showServerErrors(e),
        });
      })}
    >
      {leave.guard}
      <Field name="name" label="Name" error={form.errorFor('name')}>
        {(p) => <input {...p} className="input" autoComplete="name" {...form.bind('name')} />}
      </Field>
      {error && <ErrorNotice error={error} />}
      {done && <Notice live title="Name saved" />}
      <div className="stack-form__buttons">
        <Button type="submit" busy={update.isPending}>
          Save name
        </Button>
      </div>
    </form>
  );
}

const emailInitial = { email: '', password: '' };

function EmailForm() {
  const me = useMe();
  const change = useRequestEmailChange();
  const form = useSchemaForm({ initial: emailInitial, schema: EmailChangeRequest });
  const leave = useLeaveGuard(form.dirty);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const error = otherThanFields(change.error);
  return (
    <form
      ref={form.formRef}
      className="stack-form profile-edit__email"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) => {
        setSentTo(null);
        change.mutate(input, {
          onSuccess: (r) => {
            form.reset();
            setSentTo(r.email);
          },
          onError: (e) => form.showServerErrors(e),
        });
      })}
    >
      {leave.guard}
      <p className="panel__intro">
        You sign in with <strong>{me.email}</strong>. A new address is used once you open the link
        we mail to it.
      </p>
      <Field name="email" label="New email" error={form.errorFor('email')}>
        {(p) => (
          <input
            {...p}
            className="input"
            type="email"
            inputMode="email"
            autoComplete="email"
            spellCheck={false}
            {...form.bind('email')}
          />
        )}
      </Field>
      <Field name="password" label="Current password" error={form.errorFor('password')}>
        {(p) => <PasswordInput {...p} autoComplete="current-password" {...form.bind('password')} />}
      </Field>
      {error && <ErrorNotice error={error} />}
      {sentTo && (
        <Notice live title={`Check the mail of ${sentTo}`}>
          Open the link in it within 24 hours to sign in with that address from then on.
        </Notice>
      )}
      <div className="stack-form__buttons">
        <Button type="submit" busy={change.isPending}>
          Send confirmation link
        </Button>
      </div>
    </form>
  );
}

/** One's own name and sign-in email (issue 17). */
export function ProfileEdit() {
  return (
    <section className="panel" aria-labelledby="profile-edit-title">
      <h3 id="profile-edit-title" className="panel__title">
        Name and email
      </h3>
      <NameForm />
      <EmailForm />
    </section>
  );
}
