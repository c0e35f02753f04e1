import { IncidentUpdateInput, type IncidentDetail, type IncidentState } from '@pagewatch/contract';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { usePostIncidentUpdate } from '../api/mutations';
import { stateMeta, stateOrder } from '../labels';
import { useLeaveGuard } from '../../../lib/leave-guard';

type Values = { state: string; message: string; public: string };

const toInput = (v: Values) => ({ ...v, public: v.public === 'yes' });

/** Post an update; choosing another state moves the incident (resolved closes it). */
export function PostUpdateForm({ incident }: { incident: IncidentDetail }) {
  const post = usePostIncidentUpdate(incident.id);
  const initial: Values = { state: incident.state, message: '', public: 'yes' };
  const form = useSchemaForm({ initial, schema: IncidentUpdateInput, toInput });
  const leave = useLeaveGuard(form.dirty);
  const otherError =
    post.error && !(isApiError(post.error) && post.error.fieldErrors.length) ? post.error : null;
  const state = form.values.state as IncidentState;
  const reopening = incident.state === 'resolved' && state !== 'resolved';
  return (
    <form
      ref={form.formRef}
      className="panel iupdate"
      aria-labelledby="post-update-title"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        post.mutate(input, {
          onSuccess: (next) =>
            form.reset({ state: next.state, message: '', public: form.values.public }),
          onError: (e) => form.showServerErrors(e),
        }),
      )}
    >
      {leave.guard}
      <h2 id="post-update-title" className="panel__title">
        Post an update
      </h2>
      <Field
        name="state"
        label="State"
        hint={reopening ? 'Posting in this state reopens the incident.' : undefined}
        error={form.errorFor('state')}
      >
        {(p) => (
          <select {...p} className="input select iupdate__state" {...form.bind('state')}>
            {stateOrder.map((s) => (
              <option key={s} value={s}>
                {stateMeta[s].label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field name="message" label="Update" error={form.errorFor('message')}>
        {(p) => <textarea {...p} className="input" rows={3} {...form.bind('message')} />}
      </Field>
      <div className="iupdate__foot">
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
        <Button type="submit" variant="primary" busy={post.isPending}>
          {state === 'resolved' && incident.state !== 'resolved'
            ? 'Post and resolve'
            : 'Post update'}
        </Button>
      </div>
      {otherError && <ErrorNotice error={otherError} />}
    </form>
  );
}
