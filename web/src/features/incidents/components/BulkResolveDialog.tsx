import { IncidentBulkResolve, type IncidentBulkResult } from '@pagewatch/contract';
import { useState } from 'react';
import { Field } from '../../../components/ui/Field';
import { FormDialog } from '../../../components/ui/FormDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { plural } from '../../../lib/format';
import { useResolveIncidents } from '../api/bulk';

/** One closing update for every ticked incident; the outcome says what was skipped. */
export function BulkResolveDialog({
  ids,
  open,
  onClose,
  onDone,
}: {
  ids: number[];
  open: boolean;
  onClose: () => void;
  onDone: (result: IncidentBulkResult) => void;
}) {
  const resolve = useResolveIncidents();
  const [message, setMessage] = useState('This incident has been resolved.');
  const [shown, setShown] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    resolve.reset();
    setError(undefined);
    onClose();
  };
  return (
    <FormDialog
      open={open}
      title={`Resolve ${plural(ids.length, 'incident')}?`}
      submitLabel="Resolve incidents"
      busy={resolve.isPending}
      onCancel={close}
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = IncidentBulkResolve.safeParse({ ids, message, public: shown });
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message);
          return;
        }
        setError(undefined);
        resolve.mutate(parsed.data, { onSuccess: (r) => onDone(r) });
      }}
    >
      <div className="dialog__body stack-fields">
        <Field name="message" label="Closing update" error={error}>
          {(p) => (
            <textarea
              {...p}
              className="input"
              rows={3}
              autoFocus
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          )}
        </Field>
        <Field name="public" label="Show on public status pages" inline>
          {(p) => (
            <input
              {...p}
              type="checkbox"
              checked={shown}
              onChange={(e) => setShown(e.target.checked)}
            />
          )}
        </Field>
        {resolve.error && <ErrorNotice error={resolve.error} />}
      </div>
    </FormDialog>
  );
}
