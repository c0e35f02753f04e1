import { IncidentEdit, type IncidentDetail, type IncidentSeverity } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Field } from '../../../components/ui/Field';
import { FormDialog } from '../../../components/ui/FormDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { monitorNamesQuery } from '../../monitors/api/queries';
import { useEditIncident } from '../api/mutations';
import { severityHint, severityLabel } from '../labels';
import { MonitorPicker } from './MonitorPicker';

type Values = { title: string; severity: string; monitorIds: string };

const toInput = (v: Values) => ({
  ...v,
  monitorIds: v.monitorIds ? v.monitorIds.split(',').map(Number) : [],
});

/** Title, severity and affected monitors; the state moves through updates instead. */
export function EditIncidentDialog({
  incident,
  open,
  onClose,
}: {
  incident: IncidentDetail;
  open: boolean;
  onClose: () => void;
}) {
  const edit = useEditIncident(incident.id);
  const monitors = useQuery({ ...monitorNamesQuery(), enabled: open });
  const initial: Values = {
    title: incident.title,
    severity: incident.severity,
    monitorIds: incident.monitors.map((m) => m.id).join(','),
  };
  const form = useSchemaForm({ initial, schema: IncidentEdit, toInput });
  const otherError =
    edit.error && !(isApiError(edit.error) && edit.error.fieldErrors.length) ? edit.error : null;
  const close = () => {
    edit.reset();
    onClose();
  };
  return (
    <FormDialog
      open={open}
      title="Edit incident"
      submitLabel="Save changes"
      busy={edit.isPending}
      formRef={form.formRef}
      onBlur={form.onBlur}
      onCancel={close}
      onSubmit={form.handleSubmit((input) =>
        edit.mutate(input, { onSuccess: close, onError: (e) => form.showServerErrors(e) }),
      )}
    >
      <div className="dialog__body stack-fields">
        <Field name="title" label="Title" error={form.errorFor('title')}>
          {(p) => <input {...p} className="input" autoComplete="off" {...form.bind('title')} />}
        </Field>
        <Field
          name="severity"
          label="Severity"
          hint={severityHint[form.values.severity as IncidentSeverity]}
          error={form.errorFor('severity')}
        >
          {(p) => (
            <select {...p} className="input select" {...form.bind('severity')}>
              {(['minor', 'major', 'critical'] as const).map((s) => (
                <option key={s} value={s}>
                  {severityLabel[s]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <MonitorPicker
          monitors={monitors.data?.items ?? []}
          loading={monitors.isPending}
          value={form.values.monitorIds}
          onChange={(v) => form.set('monitorIds', v)}
          error={form.errorFor('monitorIds')}
        />
        {otherError && <ErrorNotice error={otherError} />}
      </div>
    </FormDialog>
  );
}
