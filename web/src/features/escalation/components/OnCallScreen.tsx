import type { OnCallSchedule } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { CopyButton } from '../../../components/ui/CopyButton';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { TimeZonePicker } from '../../../components/ui/TimeZonePicker';
import { formatDateTime } from '../../../lib/format';
import { CheckboxField, TextInputField } from '../../monitors/components/form/controls';
import { NotificationTabs } from '../../notifications/components/NotificationTabs';
import { usersQuery } from '../../settings/api/users';
import { onCallNowQuery, scheduleListQuery, useCreateSchedule } from '../api/oncall';

const today = () => new Date().toISOString().slice(0, 10);

/** A new weekly rotation: people in order, first day, handoff time and zone. */
function ScheduleForm({ onDone }: { onDone: () => void }) {
  const users = useQuery(usersQuery());
  const create = useCreateSchedule();
  const [name, setName] = useState('');
  const [zone, setZone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [members, setMembers] = useState<number[]>([]);
  const [startDate, setStartDate] = useState(today);
  const [handoff, setHandoff] = useState('09:00');
  const [days, setDays] = useState('7');
  return (
    <form
      className="panel section-gap"
      aria-label="New on-call schedule"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(
          {
            name,
            timeZone: zone,
            layers: [
              {
                name: 'Rotation',
                members,
                startDate,
                handoff,
                lengthDays: Number(days),
                restriction: null,
              },
            ],
          },
          { onSuccess: onDone },
        );
      }}
    >
      <h2 className="panel__title">New on-call schedule</h2>
      <div className="form__grid form__grid--narrow">
        <TextInputField
          name="name"
          label="Name"
          kind="text"
          input={{ value: name, onChange: (e) => setName(e.target.value) }}
        />
        <Field name="timeZone" label="Time zone">
          {(p) => <TimeZonePicker {...p} value={zone} onChange={setZone} />}
        </Field>
        <TextInputField
          name="startDate"
          label="First shift starts on"
          kind="text"
          input={{ type: 'date', value: startDate, onChange: (e) => setStartDate(e.target.value) }}
        />
        <TextInputField
          name="handoff"
          label="Handoff time"
          kind="text"
          input={{ type: 'time', value: handoff, onChange: (e) => setHandoff(e.target.value) }}
        />
        <TextInputField
          name="lengthDays"
          label="Shift length (days)"
          hint="7 for a weekly rotation."
          kind="number"
          input={{ value: days, onChange: (e) => setDays(e.target.value) }}
        />
      </div>
      <fieldset className="esc-people">
        <legend className="field__label">People, in the order they take over</legend>
        {(users.data?.items ?? []).map((u) => (
          <CheckboxField
            key={u.id}
            name={`member-${u.id}`}
            label={`${u.name || u.email}${members.includes(u.id) ? ` (${members.indexOf(u.id) + 1})` : ''}`}
            checked={members.includes(u.id)}
            onChange={(on) =>
              setMembers(on ? [...members, u.id] : members.filter((m) => m !== u.id))
            }
          />
        ))}
      </fieldset>
      {create.error ? <ErrorNotice error={create.error} className="section-gap" /> : null}
      <div className="actions__buttons section-gap">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Save schedule
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** One schedule: who is on call now, who is next, and its calendar feed. */
function ScheduleCard({ schedule }: { schedule: OnCallSchedule }) {
  const now = useQuery(onCallNowQuery(schedule.id));
  const n = now.data;
  return (
    <li className="panel esc-item" aria-label={schedule.name}>
      <div>
        <h2 className="panel__title">{schedule.name}</h2>
        <p data-testid="oncall-now">
          {n?.now ? (
            <>
              On call now: <strong>{n.now.userName}</strong> until{' '}
              <time dateTime={n.now.end}>{formatDateTime(n.now.end)}</time>
            </>
          ) : (
            'Nobody is on call now.'
          )}
        </p>
        {n?.next && (
          <p data-testid="oncall-next">
            Next: <strong>{n.next.userName}</strong> from{' '}
            <time dateTime={n.next.start}>{formatDateTime(n.next.start)}</time>
          </p>
        )}
        <p className="muted">
          {schedule.timeZone.replaceAll('_', ' ')} · {schedule.layers.length}{' '}
          {schedule.layers.length === 1 ? 'layer' : 'layers'} · {schedule.overrides.length}{' '}
          {schedule.overrides.length === 1 ? 'override' : 'overrides'}
        </p>
      </div>
      {n && <CopyButton text={n.feedUrl} label="Copy calendar link" size="sm" />}
    </li>
  );
}

/** On-call schedules (ADR 39): who is on call now and next; new weekly rotations. */
export function OnCallScreen() {
  const schedules = useQuery(scheduleListQuery());
  const [adding, setAdding] = useState(false);
  const items = schedules.data?.items ?? [];
  return (
    <>
      <title>On call · Notifications · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Notifications</h1>
          <p className="page-sub">On-call schedules: who is on call now, who is next.</p>
        </div>
        {!adding && (
          <Button variant="primary" icon="plus" onClick={() => setAdding(true)}>
            New schedule
          </Button>
        )}
      </div>
      <NotificationTabs />
      {adding && <ScheduleForm onDone={() => setAdding(false)} />}
      {schedules.error ? <ErrorNotice error={schedules.error} /> : null}
      {items.length === 0 && !schedules.isPending && !adding && (
        <p className="muted section-gap">No schedules yet.</p>
      )}
      <ul className="esc-list section-gap" aria-label="On-call schedules">
        {items.map((s) => (
          <ScheduleCard key={s.id} schedule={s} />
        ))}
      </ul>
    </>
  );
}
