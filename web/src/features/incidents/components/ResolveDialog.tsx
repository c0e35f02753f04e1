import { IncidentUpdateInput, type IncidentDetail } from '@pagewatch/contract';
import { Field } from '../../../components/ui/Field';
import { FormDialog } from '../../../components/ui/FormDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { usePostIncidentUpdate } from '../api/mutations';

type Values = { state: string; message: string; public: string };

const toInput = (v: Values) => ({ ...v, public: v.public === 'yes' });
const initial: Values = {
  state: 'resolved',
  message: 'This incident has been resolved.',
  public: 'yes',
};

/** Resolving is an update too: it says so on the timeline, in words people can edit. */
export function ResolveDialog({
  incident,
  open,
  onClose,
}: {
  incident: IncidentDetail;
  open: boolean;
  onClose: () => void;
}) {
  const post = usePostIncidentUpdate(incident.id);
  const form = useSchemaForm({ initial, schema: IncidentUpdateInput, toInput });
  const otherError =
    post.error && !(isApiError(post.error) && post.error.fieldErrors.length) ? post.error : null;
  const close = () => {
    form.reset();
    post.reset();
    onClose();
  };
  return (
    <FormDialog
      open={open}
      title="Resolve this incident?"
      submitLabel="Resolve incident"
      busy={post.isPending}
      formRef={form.formRef}
      onBlur={form.onBlur}
      onCancel={close}
      onSubmit={form.handleSubmit((input) =>
        post.mutate(input, { onSuccess: close, onError: (e) => form.showServerErrors(e) }),
      )}
    >
      <div className="dialog__body stack-fields">
        <Field name="message" label="Closing update" error={form.errorFor('message')}>
          {(p) => (
            <textarea {...p} className="input" rows={3} autoFocus {...form.bind('message')} />
          )}
        </Field>
        <Field name="public" label="Show on public status pages" inline>
          {(p) => (
            <input
              {...p}
              type="checkbox"
              checked={form.values.public === 'yes'}
              onChange={(e) => form.set('public', e.target.checked ? 'yes' : 'no')}
            />
          )}
        </Field>
        {otherError && <ErrorNotice error={otherError} />}
      </div>
    </FormDialog>
  );
}
