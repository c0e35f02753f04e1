import { ApiKeyInput, type ApiKey, type Role } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { describeRole, roleLabel } from '../../../auth/roles';
import { useCreateApiKey } from '../../api/api-keys';
import { expiryChoices, expiryFor } from '../../expiry';
import { leaveScreen, useLeaveGuard } from '../../../../lib/leave-guard';

type Values = { name: string; role: string; expiresAt: string; date: string };

const toInput = (v: Values) => {
  const expiry = expiryFor(v.expiresAt, v.date, Date.now());
  return { name: v.name, role: v.role, expiresAt: 'error' in expiry ? null : expiry.expiresAt };
};
const check = (v: Values): { date?: string } => {
  const expiry = expiryFor(v.expiresAt, v.date, Date.now());
  return 'error' in expiry ? { date: expiry.error } : {};
};
const today = () => new Date().toISOString().slice(0, 10);

/** Name, role (up to your own) and expiry of a new key; the key itself is shown after. */
export function CreateApiKeyForm({
  roles,
  myRole,
  onCreated,
  onCancel,
}: {
  roles: readonly Role[];
  myRole: Role;
  onCreated: (created: { apiKey: ApiKey; secret: string }) => void;
  onCancel: () => void;
}) {
  const create = useCreateApiKey();
  const initial: Values = {
    name: '',
    role: myRole === 'viewer' ? 'viewer' : 'editor',
    expiresAt: '90',
    date: '',
  };
  const form = useSchemaForm({ initial, schema: ApiKeyInput, toInput, check });
  const leave = useLeaveGuard(form.dirty);
  const otherError =
    create.error && !(isApiError(create.error) && create.error.fieldErrors.length)
      ? create.error
      : null;
  return (
    <form
      ref={form.formRef}
      className="panel stack-form"
      aria-labelledby="new-key-title"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        create.mutate(input, {
          onSuccess: (created) => {
            leave.allowLeave();
            onCreated(created);
          },
          onError: (e) => form.showServerErrors(e),
        }),
      )}
    >
      {leave.guard}
      <h3 id="new-key-title" className="panel__title">
        Create an API key
      </h3>
      <Field
        name="name"
        label="Name"
        hint="What uses it, e.g. “Deploy pipeline” or “Grafana”."
        error={form.errorFor('name')}
      >
        {(p) => <input {...p} className="input" autoComplete="off" {...form.bind('name')} />}
      </Field>
      <div className="form__grid">
        <Field
          name="role"
          label="Role"
          hint={`${describeRole(form.values.role as Role)} Never more than yours.`}
          error={form.errorFor('role')}
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
        <Field name="expiresAt" label="Expires" error={form.errorFor('expiresAt')}>
          {(p) => (
            <select {...p} className="input select" {...form.bind('expiresAt')}>
              {expiryChoices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {form.values.expiresAt === 'date' && (
          <Field name="date" label="Expiry date" error={form.errorFor('date')}>
            {(p) => (
              <input {...p} className="input" type="date" min={today()} {...form.bind('date')} />
            )}
          </Field>
        )}
      </div>
      {otherError && <ErrorNotice error={otherError} />}
      <div className="button-row">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create key
        </Button>
        <Button variant="ghost" onClick={() => leaveScreen(onCancel)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
