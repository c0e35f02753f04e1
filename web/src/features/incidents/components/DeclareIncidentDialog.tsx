import { IncidentCreate, type IncidentDetail, type IncidentSeverity } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Field } from '../../../components/ui/Field';
import { FormDialog } from '../../../components/ui/FormDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { monitorNamesQuery } from '../../monitors/api/queries';
import { useDeclareIncident } from '../api/mutations';
import { severityHint, severityLabel, stateMeta } from '../labels';
import { MonitorPicker } from './MonitorPicker';

type Values = {
  title: string;
  severity: string;
  state: string;
  message: string;
  public: string;
  monitorIds: string;
};

const initial: Values = {
  title: '',
  severity: 'major',
  state: 'investigating',
  message: '',
  public: 'yes',
  monitorIds: '',
};

const toInput = (v: Values) => ({
  ...v,
  public: v.public === 'yes',
  monitorIds: v.monitorIds ? v.monitorIds.split(',').map(Number) : [],
});

/** Declare an incident by hand: what happened, how bad, which monitors, and the first update. */
export function DeclareIncidentDialog({
  open,
  onClose,
  onDeclared,
}: {
  open: boolean;
  onClose: () => void;
  onDeclared: (incident: IncidentDetail) => void;
}) {
  const declare = useDeclareIncident();
  const monitors = useQuery({ ...monitorNamesQuery(), enabled: open });
  const form = useSchemaForm({ initial, schema: IncidentCreate, toInput });
  const otherError =
    declare.error && !(isApiError(declare.error) && declare.error.fieldErrors.length)
      ? declare.error
      : null;
  const close = () => {
    form.reset();
    declare.reset();
    onClose();
  };
  return (
    <FormDialog
      open={open}
      title="Declare an incident"
      submitLabel="Declare incident"
      busy={declare.isPending}
      formRef={form.formRef}
      onBlur={form.onBlur}
      onCancel={close}
      onSubmit={form.handleSubmit((input) =>
        declare.mutate(input, {
          onSuccess: (incident) => {
            form.reset();
            onDeclared(incident);
          },
          onError: (e) => form.showServerErrors(e),
        }),
      )}
    >
      <div className="dialog__body stack-fields">
        <Field
          name="title"
          label="Title"
          hint="What people notice, e.g. “Checkout fails for card payments”."
          error={form.errorFor('title')}
        >
          {(p) => (
            <input {...p} className="input" autoComplete="off" autoFocus {...form.bind('title')} />
          )}
        </Field>
        <div className="form__grid">
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
          <Field name="state" label="State" error={form.errorFor('state')}>
            {(p) => (
              <select {...p} className="input select" {...form.bind('state')}>
                {(['investigating', 'identified', 'monitoring'] as const).map((s) => (
                  <option key={s} value={s}>
                    {stateMeta[s].label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Field
          name="message"
          label="First update"
          hint="What you know so far and what you are doing about it."
          error={form.errorFor('message')}
        >
          {(p) => <textarea {...p} className="input" rows={4} {...form.bind('message')} />}
        </Field>
        <Field name="public" label="Show this update on public status pages" inline>
          {(p) => (
            <input
              {...p}
              type="checkbox"
              checked={form.values.public === 'yes'}
              onChange={(e) => form.set('public', e.target.checked ? 'yes' : 'no')}
            />
          )}
        </Field>
        <MonitorPicker
          monitors={monitors.data?.items ?? []}
          loading={monitors.isPending}
          value={form.values.monitorIds}
          onChange={(v) => form.set('monitorIds', v)}
          error={form.errorFor('monitorIds')}
        />
        {form.serverOther.length > 0 && <p className="field__error">{form.serverOther[0]}</p>}
        {otherError && <ErrorNotice error={otherError} />}
      </div>
    </FormDialog>
  );
}
