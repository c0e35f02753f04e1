import { Field } from '../../../../components/ui/Field';
import { TimeZonePicker } from '../../../../components/ui/TimeZonePicker';
import { SelectField, TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField, secondsNow } from './sections-general';

/** Where a push monitor's target would be: there is none to type; the job calls in. */
export function PushTargetNote() {
  return (
    <p className="form__note" data-testid="push-note">
      Nothing is fetched: your job (a cron entry, a backup script) calls the monitor’s push URL each
      time it runs. Pagewatch makes the URL when you create the monitor and shows it on the
      monitor’s page, with examples.
    </p>
  );
}

/** The schedule of a push monitor: how often pings are expected and how late they may be. */
const SCHEDULE_KINDS = [
  { value: 'interval', label: 'Every interval' },
  { value: 'cron', label: 'On a cron schedule' },
  { value: 'oncalendar', label: 'On a systemd OnCalendar schedule' },
] as const;

const EXPRESSION_HINT = {
  cron: 'Minute hour day month weekday, e.g. 30 2 * * *',
  oncalendar: 'e.g. daily or Mon..Fri *-*-* 09:00',
} as const;

const SCHEDULE_NOTE = {
  cron: 'Five fields: minute (0–59), hour (0–23), day of month, month (1–12 or JAN–DEC), day of week (0–7 or SUN–SAT); each a number, *, a range a-b, a step */n or a list. @hourly, @daily and @weekly work too.',
  oncalendar:
    'systemd’s form: optional weekdays (Mon..Fri), a date (*-*-01; the year must be *) and a time (02:30, *:00/15). Weekday and date must both match. Shorthands: hourly, daily, weekly, monthly. No seconds other than 00, no ~.',
} as const;

export function PushScheduleSection(props: SectionProps) {
  const { v, set, errorFor, text } = props;
  const scheduled = v.scheduleKind !== 'interval';
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Schedule</legend>
      <div className="form__grid form__grid--narrow">
        <SelectField
          name="schedule"
          label="Pings expected"
          error={errorFor('schedule')}
          value={v.scheduleKind}
          options={SCHEDULE_KINDS}
          onChange={(kind) => set('scheduleKind', kind, 'schedule')}
        />
        {scheduled && (
          <TextInputField
            name="schedule.expression"
            label={v.scheduleKind === 'cron' ? 'Cron expression' : 'OnCalendar expression'}
            error={errorFor('schedule.expression')}
            hint={EXPRESSION_HINT[v.scheduleKind as 'cron' | 'oncalendar']}
            kind="text"
            input={{
              placeholder: v.scheduleKind === 'cron' ? '30 2 * * *' : 'Mon..Fri *-*-* 09:00',
              ...text('scheduleExpression'),
            }}
          />
        )}
        {scheduled && (
          <Field
            name="schedule.timezone"
            label="Time zone"
            hint="The schedule is read in this zone, daylight saving time included."
            error={errorFor('schedule.timezone')}
          >
            {(p) => (
              <TimeZonePicker
                {...p}
                value={v.scheduleTimezone}
                onChange={(zone) => set('scheduleTimezone', zone, 'schedule.timezone')}
              />
            )}
          </Field>
        )}
        <TextInputField
          name="interval"
          label={scheduled ? 'After a miss, look again every' : 'Expected every'}
          error={errorFor('interval')}
          hint={
            scheduled
              ? `Seconds; after a missed run, a further miss is counted this often until a ping comes.${secondsNow(v.interval)}`
              : `Seconds between runs of the job, 10 to 86,400.${secondsNow(v.interval)}`
          }
          kind="number"
          input={text('interval')}
        />
        <TextInputField
          name="graceSeconds"
          label="Grace period (seconds)"
          error={errorFor('graceSeconds')}
          hint={`How late a ping may be before it counts as missed; 0 to 86,400.${secondsNow(v.graceSeconds)}`}
          kind="number"
          input={text('graceSeconds')}
        />
        <TextInputField
          name="retries"
          label="Misses before down"
          error={errorFor('retries')}
          hint="Missed or failed runs in a row before it counts as down; 0 to 10."
          kind="number"
          input={text('retries')}
        />
        <TextInputField
          name="retryInterval"
          label="Retry every (seconds)"
          error={errorFor('retryInterval')}
          hint="Optional. After a miss, when to look again; empty uses the expected interval."
          kind="number"
          input={{ placeholder: 'Same as expected', ...text('retryInterval') }}
        />
        <DegradedField
          {...props}
          hint="Runs that report a longer duration (ping=, or /start then success) count as degraded."
        />
      </div>
      {scheduled && (
        <p className="form__note" data-testid="schedule-note">
          {SCHEDULE_NOTE[v.scheduleKind as 'cron' | 'oncalendar']} Daylight saving time: a run due
          in the skipped spring hour is expected right after the jump; one in the repeated autumn
          hour, once (the first). See docs/push-schedules.md.
        </p>
      )}
    </fieldset>
  );
}
