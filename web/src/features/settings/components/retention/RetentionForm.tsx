import { RetentionSettings, retentionLimits, type Settings } from '@pagewatch/contract';
import { useMemo, useState, type InputHTMLAttributes } from 'react';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { useLeaveGuard } from '../../../../lib/leave-guard';
import { useUpdateSettings } from '../../api/settings';
import { withinGroup } from '../../group-errors';

type Values = {
  rawDays: string;
  minuteRollupDays: string;
  hourRollupDays: string;
  dayRollupDays: string;
  /** 'yes' while day rollups are kept forever. */
  dayForever: string;
};

const days = (v: string) => (v.trim() === '' ? undefined : Number(v));
const toInput = (v: Values) => ({
  rawDays: days(v.rawDays),
  minuteRollupDays: days(v.minuteRollupDays),
  hourRollupDays: days(v.hourRollupDays),
  dayRollupDays: v.dayForever === 'yes' ? null : days(v.dayRollupDays),
});

const fields = [
  {
    key: 'rawDays',
    label: 'Raw check results',
    hint: 'Each check with its phases and error: the recent checks list.',
  },
  {
    key: 'minuteRollupDays',
    label: 'Minute rollups',
    hint: 'The 1 h and 24 h charts and uptime.',
  },
  {
    key: 'hourRollupDays',
    label: 'Hour rollups',
    hint: 'The 7 d and 30 d charts and uptime.',
  },
] as const;

const range = (key: keyof typeof retentionLimits) =>
  `${retentionLimits[key].min.toLocaleString('en')}–${retentionLimits[key].max.toLocaleString('en')} days`;

/** How long each grain of history is kept; saved as one group. */
export function RetentionForm({ settings }: { settings: Settings }) {
  const save = useUpdateSettings();
  const initial = useMemo<Values>(() => valuesOf(settings.retention), [settings.retention]);
  const form = useSchemaForm({ initial, schema: RetentionSettings, toInput });
  const leave = useLeaveGuard(form.dirty);
  const [saved, setSaved] = useState(false);
  const forever = form.values.dayForever === 'yes';
  const otherError =
    save.error && !(isApiError(save.error) && save.error.fieldErrors.length) ? save.error : null;
  return (
    <form
      ref={form.formRef}
      className="panel stack-form retention-form"
      aria-labelledby="retention-title"
      noValidate
      onBlur={form.onBlur}
      onChange={() => setSaved(false)}
      onSubmit={form.handleSubmit((retention) => {
        setSaved(false);
        save.mutate(
          { retention },
          {
            onSuccess: (next) => {
              form.reset(valuesOf(next.retention));
              setSaved(true);
            },
            onError: (e) => form.showServerErrors(withinGroup(e, 'retention')),
          },
        );
      })}
    >
      {leave.guard}
      <h3 id="retention-title" className="panel__title">
        History kept
      </h3>
      <p className="panel__intro">
        The retention job deletes older rows every 10 minutes; a change applies from its next pass.
      </p>
      <div className="retention-grid">
        {fields.map((f) => (
          <Field
            key={f.key}
            name={f.key}
            label={f.label}
            hint={`${f.hint} ${range(f.key)}.`}
            error={form.errorFor(f.key)}
          >
            {(p) => <DaysInput {...p} {...form.bind(f.key)} />}
          </Field>
        ))}
        <Field
          name="dayRollupDays"
          label="Day rollups"
          hint={`The 90 d chart, uptime and status page bars. ${range('dayRollupDays')}.`}
          error={forever ? undefined : form.errorFor('dayRollupDays')}
        >
          {(p) => <DaysInput {...p} disabled={forever} {...form.bind('dayRollupDays')} />}
        </Field>
      </div>
      <label className="check-row">
        <input
          type="checkbox"
          checked={forever}
          onChange={(e) => {
            form.set('dayForever', e.target.checked ? 'yes' : '');
            // A keep to start from: as long as the hour rollups, the shortest allowed.
            if (!e.target.checked && form.values.dayRollupDays === '')
              form.set(
                'dayRollupDays',
                String(Math.max(91, Number(form.values.hourRollupDays) || 0)),
              );
          }}
        />
        Keep day rollups forever
      </label>
      {form.serverOther.length > 0 && (
        <Notice live tone="danger" title="The settings were not saved">
          {form.serverOther.join(' ')}
        </Notice>
      )}
      {otherError && <ErrorNotice error={otherError} />}
      {saved && <Notice live title="Retention saved" />}
      <div className="stack-form__buttons">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}

function valuesOf(r: Settings['retention']): Values {
  return {
    rawDays: String(r.rawDays),
    minuteRollupDays: String(r.minuteRollupDays),
    hourRollupDays: String(r.hourRollupDays),
    dayRollupDays: r.dayRollupDays === null ? '' : String(r.dayRollupDays),
    dayForever: r.dayRollupDays === null ? 'yes' : '',
  };
}

function DaysInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return (
    <span className="days-input">
      <input {...props} className="input" type="number" inputMode="numeric" min={1} step={1} />
      <span className="days-input__unit">days</span>
    </span>
  );
}
