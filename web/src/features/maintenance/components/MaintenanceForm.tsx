import type { MaintenanceWindow } from '@pagewatch/contract';
import { useMemo } from 'react';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { TimeZonePicker } from '../../../components/ui/TimeZonePicker';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { Segmented } from '../../../components/ui/Segmented';
import { ApiError, isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useLeaveGuard } from '../../../lib/leave-guard';
import { useSaveWindow } from '../api/maintenance';
import {
  checkValues,
  previewInput,
  toFormErrors,
  toSchemaInput,
  windowSchema,
  type Repeat,
  type WindowValues,
} from '../form-values';
import { weekdays } from '../presets';
import { MonitorPicker } from './MonitorPicker';
import { OccurrencePreview } from './OccurrencePreview';

const repeatOptions: { value: Repeat; label: string }[] = [
  { value: 'once', label: 'Once' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'advanced', label: 'Cron or RRULE' },
];

const scopeOptions = [
  { value: 'all' as const, label: 'All monitors' },
  { value: 'monitors' as const, label: 'Chosen monitors' },
];

const ruleOptions = [
  { value: 'cron' as const, label: 'Cron' },
  { value: 'rrule' as const, label: 'RRULE' },
];

function RuleHelp({ rule }: { rule: 'cron' | 'rrule' }) {
  return rule === 'cron' ? (
    <>
      Five fields: minute, hour, day of month, month, day of week. <code>0 3 * * *</code> is 03:00
      every day; <code>30 1 * * 1-5</code> is 01:30 on weekdays.
    </>
  ) : (
    <>
      An RFC 5545 rule without DTSTART: <code>FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30</code> is
      Sundays at 02:30; <code>FREQ=MONTHLY;BYDAY=1SA;BYHOUR=22</code> is the first Saturday at
      22:00.
    </>
  );
}

/** Create or edit a window; the server's next occurrences show beside it as it is filled in. */
export function MaintenanceForm({
  initial,
  editing,
  onSaved,
  onCancel,
}: {
  initial: WindowValues;
  editing: MaintenanceWindow | null;
  onSaved: (w: MaintenanceWindow) => void;
  onCancel: () => void;
}) {
  const save = useSaveWindow(editing?.id ?? null);
  const form = useSchemaForm({
    initial,
    schema: windowSchema,
    toInput: toSchemaInput,
    check: checkValues,
  });
  const leave = useLeaveGuard(form.dirty);
  const v = form.values;
  const preview = useMemo(() => previewInput(v), [v]);
  const set = <K extends keyof WindowValues>(key: K, value: WindowValues[K]) =>
    form.set(key, value);
  const days = v.weekdays.split(',').filter(Boolean);
  const otherError =
    save.error && !(isApiError(save.error) && save.error.fieldErrors.length) ? save.error : null;

  const submit = form.handleSubmit((input) =>
    save.mutate(input, {
      onSuccess: (saved) => {
        leave.allowLeave();
        onSaved(saved);
      },
      onError: (e) => {
        if (!isApiError(e) || e.fieldErrors.length === 0) return;
        form.showServerErrors(
          new ApiError({
            kind: e.kind,
            status: e.status,
            title: e.title,
            detail: e.detail,
            fieldErrors: toFormErrors(e.fieldErrors, v.repeat),
          }),
        );
      },
    }),
  );

  return (
    <form
      ref={form.formRef}
      className="form mw-form"
      noValidate
      onSubmit={submit}
      onBlur={form.onBlur}
    >
      {leave.guard}
      <fieldset className="form__section">
        <legend className="form__legend">What</legend>
        <Field name="title" label="Title" error={form.errorFor('title')}>
          {(p) => (
            <input
              {...p}
              className="input"
              autoComplete="off"
              placeholder="e.g. Database upgrade"
              {...form.bind('title')}
            />
          )}
        </Field>
        <Field
          name="description"
          label="Description"
          optional
          hint="Shown to your team next to the window."
          error={form.errorFor('description')}
        >
          {(p) => (
            <textarea {...p} className="input textarea" rows={2} {...form.bind('description')} />
          )}
        </Field>
        <div className="field field--choice" data-field="scope">
          <span className="field__label">Applies to</span>
          <Segmented
            label="Applies to"
            value={v.scope}
            options={scopeOptions}
            onChange={(s) => set('scope', s)}
          />
        </div>
        {v.scope === 'monitors' && (
          <Field name="monitorIds" label="Monitors" error={form.errorFor('monitorIds')}>
            {(p) => (
              <MonitorPicker
                control={p}
                value={v.monitorIds}
                onChange={(ids) => set('monitorIds', ids)}
              />
            )}
          </Field>
        )}
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">When</legend>
        <div className="mw-when">
          <div className="mw-when__fields">
            <div className="field field--choice" data-field="repeat">
              <span className="field__label">Repeats</span>
              <Segmented
                label="Repeats"
                value={v.repeat}
                options={repeatOptions}
                onChange={(r) => set('repeat', r)}
              />
              {form.errorFor('repeat') && <p className="field__error">{form.errorFor('repeat')}</p>}
            </div>
            <Field
              name="timezone"
              label="Time zone"
              hint="Times below are wall-clock times there, daylight saving included."
              error={form.errorFor('timezone')}
            >
              {(p) => (
                <TimeZonePicker
                  {...p}
                  value={v.timezone}
                  onChange={(zone) => form.set('timezone', zone)}
                />
              )}
            </Field>

            {v.repeat === 'once' ? (
              <div className="form__grid">
                <Field name="startsAt" label="Starts" error={form.errorFor('startsAt')}>
                  {(p) => (
                    <input
                      {...p}
                      className="input"
                      type="datetime-local"
                      {...form.bind('startsAt')}
                    />
                  )}
                </Field>
                <Field name="endsAt" label="Ends" error={form.errorFor('endsAt')}>
                  {(p) => (
                    <input
                      {...p}
                      className="input"
                      type="datetime-local"
                      {...form.bind('endsAt')}
                    />
                  )}
                </Field>
              </div>
            ) : (
              <>
                {v.repeat === 'advanced' ? (
                  <>
                    <div className="field field--choice" data-field="rule">
                      <span className="field__label">Rule type</span>
                      <Segmented
                        label="Rule type"
                        value={v.rule}
                        options={ruleOptions}
                        onChange={(r) => set('rule', r)}
                      />
                    </div>
                    <Field
                      name="expression"
                      label={v.rule === 'cron' ? 'Cron expression' : 'RRULE'}
                      hint={<RuleHelp rule={v.rule} />}
                      error={form.errorFor('expression')}
                    >
                      {(p) => (
                        <input
                          {...p}
                          className="input mono"
                          autoComplete="off"
                          spellCheck={false}
                          placeholder={
                            v.rule === 'cron' ? '0 3 * * *' : 'FREQ=WEEKLY;BYDAY=SU;BYHOUR=2'
                          }
                          {...form.bind('expression')}
                        />
                      )}
                    </Field>
                  </>
                ) : (
                  <>
                    {v.repeat === 'weekly' && (
                      <fieldset
                        className="field mw-days"
                        data-field="weekdays"
                        aria-describedby={form.errorFor('weekdays') ? 'mw-days-error' : undefined}
                      >
                        <legend className="field__label">On</legend>
                        <div className="mw-days__list">
                          {weekdays.map((d) => (
                            <label key={d.code} className="mw-day">
                              <input
                                type="checkbox"
                                checked={days.includes(d.code)}
                                onChange={(e) =>
                                  set(
                                    'weekdays',
                                    weekdays
                                      .map((w) => w.code)
                                      .filter((c) =>
                                        c === d.code ? e.target.checked : days.includes(c),
                                      )
                                      .join(','),
                                  )
                                }
                              />
                              <span title={d.long}>{d.short}</span>
                            </label>
                          ))}
                        </div>
                        {form.errorFor('weekdays') && (
                          <p id="mw-days-error" className="field__error">
                            {form.errorFor('weekdays')}
                          </p>
                        )}
                      </fieldset>
                    )}
                    <Field
                      name="time"
                      label="At"
                      hint="A time skipped when clocks go forward starts the window as soon as the clock reaches the next valid time; a time that happens twice when clocks go back counts once, the first time."
                      error={form.errorFor('time')}
                    >
                      {(p) => (
                        <input
                          {...p}
                          className="input mw-time"
                          type="time"
                          {...form.bind('time')}
                        />
                      )}
                    </Field>
                  </>
                )}
                <div className="form__grid">
                  <Field
                    name="duration"
                    label="Lasts (minutes)"
                    hint="1 minute to 7 days (10,080)."
                    error={form.errorFor('duration')}
                  >
                    {(p) => (
                      <input
                        {...p}
                        className="input"
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={10080}
                        {...form.bind('duration')}
                      />
                    )}
                  </Field>
                  <Field name="from" label="Starting from" error={form.errorFor('from')}>
                    {(p) => (
                      <input
                        {...p}
                        className="input"
                        type="datetime-local"
                        {...form.bind('from')}
                      />
                    )}
                  </Field>
                  <Field name="until" label="Until" optional error={form.errorFor('until')}>
                    {(p) => (
                      <input
                        {...p}
                        className="input"
                        type="datetime-local"
                        {...form.bind('until')}
                      />
                    )}
                  </Field>
                </div>
              </>
            )}
          </div>
          <OccurrencePreview input={preview} />
        </div>
      </fieldset>

      <div className="form__footer">
        {form.serverOther.map((message) => (
          <Notice key={message} tone="danger" live title="The server did not accept the window">
            {message}
          </Notice>
        ))}
        {otherError && <ErrorNotice error={otherError} />}
        <div className="form__buttons">
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            {editing ? 'Save changes' : 'Create window'}
          </Button>
        </div>
      </div>
    </form>
  );
}
