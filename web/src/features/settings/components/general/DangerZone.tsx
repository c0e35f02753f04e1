import { DeleteAllData, OwnershipTransfer, type DeletedData } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { FormDialog } from '../../../../components/ui/FormDialog';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { plural } from '../../../../lib/format';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { PasswordInput } from '../../../auth/components/PasswordInput';
import { useDeleteAllData, useTransferOwnership } from '../../api/settings';
import { usersQuery } from '../../api/users';

const otherThanFields = (error: unknown) =>
  error && !(isApiError(error) && error.fieldErrors.length) ? error : null;

const transferInitial = { userId: '', password: '' };
const toTransfer = (v: typeof transferInitial) => ({
  userId: v.userId === '' ? 0 : Number(v.userId),
  password: v.password,
});

function TransferOwnership({ onTransferred }: { onTransferred: (to: string) => void }) {
  const { data } = useQuery(usersQuery());
  const admins = (data?.items ?? []).filter((u) => u.role === 'admin' && !u.disabled);
  const transfer = useTransferOwnership();
  const form = useSchemaForm({
    initial: transferInitial,
    schema: OwnershipTransfer,
    toInput: toTransfer,
  });
  return (
    <form
      ref={form.formRef}
      className="danger-item danger-item--form"
      aria-labelledby="transfer-title"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        transfer.mutate(input, {
          onSuccess: () => {
            const to = admins.find((u) => u.id === input.userId);
            onTransferred(to ? `${to.name} (${to.email})` : 'The admin you chose');
          },
          onError: (e) => form.showServerErrors(e),
        }),
      )}
    >
      <div>
        <h4 id="transfer-title" className="danger-item__title">
          Transfer ownership
        </h4>
        <p className="danger-item__text">
          The admin you choose becomes the owner; you become an admin. Only an owner can hand it
          back.
        </p>
      </div>
      {admins.length === 0 && data ? (
        <p className="danger-item__text">
          There is no enabled admin to hand over to. Make someone an admin in Users first.
        </p>
      ) : (
        <>
          <Field name="userId" label="New owner" error={form.errorFor('userId')}>
            {(p) => (
              <select {...p} className="input select" {...form.bind('userId')}>
                <option value="">Choose an admin…</option>
                {admins.map((u) => (
                  <option key={u.id} value={String(u.id)}>
                    {u.name} ({u.email})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field name="password" label="Your password" error={form.errorFor('password')}>
            {(p) => (
              <PasswordInput {...p} autoComplete="current-password" {...form.bind('password')} />
            )}
          </Field>
          {otherThanFields(transfer.error) && <ErrorNotice error={transfer.error} />}
          <div className="stack-form__buttons">
            <Button type="submit" variant="danger" busy={transfer.isPending}>
              Transfer ownership
            </Button>
          </div>
        </>
      )}
    </form>
  );
}

function DeleteAllDialog({
  instanceName,
  onDone,
  onCancel,
}: {
  instanceName: string;
  onDone: (deleted: DeletedData) => void;
  onCancel: () => void;
}) {
  const remove = useDeleteAllData();
  const form = useSchemaForm({
    initial: { confirm: '' },
    schema: DeleteAllData,
    check: (v) =>
      v.confirm.trim() === instanceName
        ? {}
        : { confirm: `That is not the instance name: type ${instanceName}` },
  });
  return (
    <FormDialog
      open
      title="Delete all data?"
      submitLabel="Delete all data"
      tone="danger"
      busy={remove.isPending}
      onCancel={onCancel}
      formRef={form.formRef}
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        remove.mutate(input.confirm, {
          onSuccess: onDone,
          onError: (e) => form.showServerErrors(e),
        }),
      )}
    >
      <div className="dialog__body">
        <p>
          This deletes every monitor with all of its history, every incident, status page,
          notification channel, pending notification and maintenance window. It cannot be undone.
        </p>
        <p>People, their sessions and API keys, the settings and the audit log stay.</p>
      </div>
      <Field
        name="confirm"
        label={
          <>
            Type <strong className="confirm-name">{instanceName}</strong> to confirm
          </>
        }
        error={form.errorFor('confirm')}
      >
        {(p) => <input {...p} className="input" autoComplete="off" {...form.bind('confirm')} />}
      </Field>
      {otherThanFields(remove.error) && <ErrorNotice error={remove.error} />}
    </FormDialog>
  );
}

/** The owner's irreversible actions, apart from everything else on the screen. */
export function DangerZone({
  instanceName,
  onTransferred,
}: {
  instanceName: string;
  /** Called with who owns the instance now; this zone disappears with the owner role. */
  onTransferred: (to: string) => void;
}) {
  const [deleting, setDeleting] = useState(false);
  const [deleted, setDeleted] = useState<DeletedData | null>(null);
  return (
    <section className="panel danger-zone" aria-labelledby="danger-title">
      <h3 id="danger-title" className="panel__title">
        Danger zone
      </h3>
      <p className="panel__intro">Only the owner sees these.</p>
      <TransferOwnership onTransferred={onTransferred} />
      <div className="danger-item danger-item--row">
        <div>
          <h4 className="danger-item__title">Delete all data</h4>
          <p className="danger-item__text">
            Monitors and their history, incidents, status pages, channels and maintenance. People
            and settings stay.
          </p>
        </div>
        <Button variant="danger" icon="trash" onClick={() => setDeleting(true)}>
          Delete all data…
        </Button>
      </div>
      {deleted && (
        <Notice live title="All data deleted">
          {plural(deleted.monitors, 'monitor')}, {plural(deleted.incidents, 'incident')},{' '}
          {plural(deleted.statusPages, 'status page')},{' '}
          {plural(deleted.notificationChannels, 'notification channel')} and{' '}
          {plural(deleted.maintenanceWindows, 'maintenance window')} were deleted.
        </Notice>
      )}
      {deleting && (
        <DeleteAllDialog
          instanceName={instanceName}
          onCancel={() => setDeleting(false)}
          onDone={(d) => {
            setDeleting(false);
            setDeleted(d);
          }}
        />
      )}
    </section>
  );
}
