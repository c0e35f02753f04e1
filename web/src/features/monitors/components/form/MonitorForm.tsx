import type { Monitor, MonitorDraft } from '@pagewatch/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import { Button, ButtonLink } from '../../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { plural } from '../../../../lib/format';
import type { FormValues } from './form-values';
import type { SectionProps, TextKey } from './section-props';
import { BasicsSection, DetailsSection, ScheduleSection } from './sections-general';
import { RequestSection, ResponseSection } from './sections-http';
import { useMonitorForm } from './useMonitorForm';

const knownFields = new Set([
  'name',
  'url',
  'method',
  'interval',
  'timeout',
  'retries',
  'retryInterval',
  'degradedThresholdMs',
  'headers',
  'body',
  'acceptedStatusCodes',
  'followRedirects',
  'maxRedirects',
  'keyword.value',
  'keyword.mode',
  'ignoreTls',
  'tags',
  'description',
]);
const isKnown = (key: string) => knownFields.has(key) || key.startsWith('headers.');

interface MonitorFormProps {
  mode: 'create' | 'edit';
  initial: FormValues;
  mutation: UseMutationResult<Monitor, Error, MonitorDraft>;
  cancelTo: string;
  onSaved: (monitor: Monitor) => void;
}

export function MonitorForm({ mode, initial, mutation, cancelTo, onSaved }: MonitorFormProps) {
  const form = useMonitorForm(initial, mutation, onSaved);
  const { values: v, set, errorFor } = form;
  const orphans = Object.entries(form.serverErrors).filter(([key]) => !isKnown(key));
  const fieldErrorCount = Object.keys(form.shownErrors).filter(isKnown).length;
  const otherError =
    mutation.error && !(isApiError(mutation.error) && mutation.error.fieldErrors.length > 0)
      ? mutation.error
      : null;
  const section: SectionProps = {
    v,
    set,
    errorFor,
    text: (key: TextKey) => ({
      value: v[key],
      onChange: (e) => set(key, e.target.value),
    }),
  };

  return (
    <form
      ref={form.formRef}
      className="form"
      noValidate
      onSubmit={form.onSubmit}
      onBlur={form.onBlur}
    >
      <BasicsSection {...section} />

      <ScheduleSection {...section} />

      <RequestSection {...section} />

      <ResponseSection {...section} />

      <DetailsSection {...section} />

      <div className="form__footer">
        {form.submitted && fieldErrorCount > 0 && (
          <p className="form__summary" role="alert">
            Fix {plural(fieldErrorCount, 'field')} marked above to continue.
          </p>
        )}
        {orphans.map(([key, message]) => (
          <Notice key={key} tone="danger" live title="The server did not accept the monitor">
            {key ? `${key}: ${message}` : message}
          </Notice>
        ))}
        {otherError && <ErrorNotice error={otherError} />}
        <div className="form__buttons">
          <ButtonLink to={cancelTo} variant="ghost">
            Cancel
          </ButtonLink>
          <Button type="submit" variant="primary" busy={mutation.isPending}>
            {mode === 'create' ? 'Create monitor' : 'Save changes'}
          </Button>
        </div>
      </div>
    </form>
  );
}
